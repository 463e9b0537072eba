import { ApiError } from '../../errors/api-error';
import type { GifHeader } from '../types';
import type { RequestedFormat } from './choose-formats';

/** The frames' areas an animation may sum to (imgproxy's and Cloudflare's figure; decisions.md, "Inputs phones and web sites produce"). */
export const MAX_FRAME_PIXELS = 50_000_000;

/** The output keeps every frame of an animated input: it is WebP, asked for or given to `auto` when Accept lists it. */
export const keepsEveryFrame = (format: RequestedFormat, acceptsWebp: boolean) => format === 'webp' || (format === 'auto' && acceptsWebp);

/**
 * Refuses, from the header, an animation whose frames would sum past the cap when every frame is kept: each frame
 * counts the canvas once (the decisions' reading: a frame is drawn onto the whole screen), so 10,000 frames of one
 * pixel on a 100x100 screen are 100 MP. Not applied when only the first frame is made.
 */
export function refuseFrameArea(header: GifHeader, keepsFrames: boolean): void {
  const pixels = header.gif.frameCount * header.width * header.height;
  if (!keepsFrames || !header.animated || pixels <= MAX_FRAME_PIXELS) return;
  throw new ApiError(
    'image_too_large',
    `The GIF has ${header.gif.frameCount} frames of ${header.width}x${header.height} (${Math.round(pixels / 1e6)} MP in all); ` +
      `the limit is ${MAX_FRAME_PIXELS / 1e6} MP of frames. Send fewer frames, or ask for the first frame alone (a format other than WebP).`,
  );
}
