import { z } from 'zod';
import { METADATA_CLASSES } from '../image/types';
import { anim, background, base64Image, booleanText, boxHeight, boxWidth, fit, gravity, imageFile, integerText, listText, maxHeight, maxWidth, outputFormat, preserve, quality } from './fields';

/** The geometry fields' rules across fields (decisions.md, "Geometry: boxes, fit modes and gravity"). */
function checkGeometry(
  body: { width?: number | undefined; height?: number | undefined; maxWidth?: number | undefined; maxHeight?: number | undefined; fit?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const box = body.width !== undefined || body.height !== undefined;
  if (box && (body.maxWidth !== undefined || body.maxHeight !== undefined)) {
    const path = [body.width !== undefined ? 'width' : 'height'];
    ctx.addIssue({ code: 'custom', path, message: 'width/height and maxWidth/maxHeight cannot be given together: maxWidth/maxHeight are fit=scale-down into that box' });
  }
  const fitMode = body.fit ?? 'scale-down';
  if (fitMode !== 'scale-down' && fitMode !== 'contain' && (body.width === undefined || body.height === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['fit'], message: `fit=${fitMode} needs both width and height` });
  }
}

/** POST /v1/compress with application/json (CompressRequest). */
export const compressJsonBody = z
  .strictObject({
    image: base64Image.optional(),
    url: z.string().describe('Public https image URL; takes priority over image').optional(),
    quality: quality.default(80),
    format: outputFormat.default('auto'),
    maxWidth: maxWidth.optional(),
    maxHeight: maxHeight.optional(),
    width: boxWidth.optional(),
    height: boxHeight.optional(),
    fit: fit.optional(),
    gravity: gravity.optional(),
    background: background.optional(),
    preserve: preserve.optional(),
    anim: anim.optional(),
  })
  .superRefine(checkGeometry);

/** POST /v1/compress with multipart/form-data (CompressMultipartRequest). */
export const compressMultipartBody = z
  .strictObject({
    file: imageFile.optional(),
    quality: integerText(quality).default(80),
    format: outputFormat.default('auto'),
    maxWidth: integerText(maxWidth).optional(),
    maxHeight: integerText(maxHeight).optional(),
    width: integerText(boxWidth).optional(),
    height: integerText(boxHeight).optional(),
    fit: fit.optional(),
    gravity: gravity.optional(),
    background: background.optional(),
    preserve: listText(preserve, METADATA_CLASSES).optional(),
    anim: booleanText(anim).optional(),
  })
  .superRefine(checkGeometry);

export type CompressOptions = Omit<z.output<typeof compressJsonBody>, 'image' | 'url'>;
