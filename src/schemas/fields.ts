import { z } from 'zod';

/** The request parameters' rules, shared by the JSON and multipart forms of a request. */
export const quality = z.number().int().min(1).max(100).describe(
  "1 to 100; the same number means about the same visual quality (butteraugli distance) in every format: mozjpeg's scale, mapped onto WebP and lossy PNG. PNG is lossless at 100 and quantised to a dithered palette of at most 256 colours below (images of 256 colours or fewer stay exact).",
);
export const outputFormat = z.enum(['auto', 'jpeg', 'png', 'webp']).describe('auto keeps the input format, or returns WebP when Accept lists image/webp and WebP is smaller');
export const dimension = z.number().int().min(1);

/** A multipart text part holding an integer, checked by the same rule as its JSON form. */
export function integerText(rule: z.ZodNumber) {
  return z
    .string()
    .trim()
    .regex(/^[+-]?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(rule);
}

export const imageFile = z.instanceof(File, { error: 'expected a file upload' });
export const base64Image = z.string({ error: 'expected base64 image data' }).min(1, 'expected base64 image data').describe('Base64-encoded image, with or without a data URI prefix');
