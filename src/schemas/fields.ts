import { z } from 'zod';

/** The request parameters' rules, shared by the JSON and multipart forms of a request. */
export const quality = z.number().int().min(1).max(100).describe(
  "1 to 100; the same number means about the same visual quality in every format (fitted on butteraugli and SSIMULACRA2): mozjpeg's familiar scale, mapped onto jpegli (the JPEG encoder), WebP and lossy PNG. PNG is lossless at 100 and below it quantised to a dithered palette of as few colours (at most 256) as the quality allows; a graphic keeps every colour that stands apart, and comes back exact when all do.",
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

/**
 * The image fields, as the body parsers hand them over: their bytes, read (and for JSON base64-decoded)
 * as they arrived (src/input/read-fields.ts). The API reference describes what a client sends instead
 * (src/docs/json-schema.ts).
 */
export const imageFile = z.instanceof(Uint8Array, { error: 'expected a file upload' });
export const base64Image = z
  .instanceof(Uint8Array, { error: 'expected base64 image data' })
  .refine((bytes) => bytes.length > 0, 'expected base64 image data')
  .describe('Base64-encoded image, with or without a data URI prefix');
