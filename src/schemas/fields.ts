import { z } from 'zod';

/** The request parameters' rules, shared by the JSON and multipart forms of a request. */
export const quality = z.number().int().min(1).max(100).describe(
  "1 to 100; the same number means about the same visual quality in every format (fitted on butteraugli and SSIMULACRA2): mozjpeg's familiar scale, mapped onto jpegli (the JPEG encoder), WebP, AVIF (libaom) and lossy PNG. PNG is lossless at 100 and below it quantised to a dithered palette of as few colours (at most 256) as the quality allows; a graphic keeps every colour that stands apart, and comes back exact when all do.",
);
export const outputFormat = z
  .enum(['auto', 'jpeg', 'png', 'webp', 'avif'])
  .describe('auto keeps the input format, or returns WebP or AVIF when Accept lists image/webp or image/avif and it is smaller');
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
