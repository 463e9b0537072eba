import { z } from 'zod';
import { METADATA_CLASSES } from '../image/types';

/** The request parameters' rules, shared by the JSON and multipart forms of a request. */
// Written for the people who read /docs; how the one scale is fitted to each encoder is in the README.
export const quality = z.number().int().min(1).max(100).describe(
  'Visual quality, from 1 (smallest file) to 100 (best look). The default, 80, suits most photos; 60 to 75 makes smaller files where fine detail matters less. The same number gives about the same look in JPEG, WebP, AVIF and PNG output. For PNG, 100 is lossless; below 100 the colours are reduced to a palette of at most 256, and a graphic with few colours comes back exact.',
);
export const outputFormat = z
  .enum(['auto', 'jpeg', 'png', 'webp', 'avif'])
  .describe('auto keeps the input format, or returns WebP or AVIF when Accept lists image/webp or image/avif and it is smaller');
const dimension = z.number().int().min(1);
const fitTo = (side: 'width' | 'height') =>
  `Largest ${side} of the result, in pixels, as the image is displayed (after its EXIF rotation). A larger image is scaled down to fit, keeping its aspect ratio; a smaller one is never enlarged.`;
export const maxWidth = dimension.describe(fitTo('width'));
export const maxHeight = dimension.describe(fitTo('height'));

/** Order and repeats do not matter: the names come out once each, in METADATA_CLASSES' order. */
export const preserve = z
  .array(z.enum(METADATA_CLASSES))
  .max(METADATA_CLASSES.length * 4, 'too many names')
  .transform((names) => METADATA_CLASSES.filter((name) => names.includes(name)))
  .describe(
    'Metadata to keep besides orientation and colour: `copyright` (EXIF Copyright and Artist, IPTC by-line, credit and copyright notice, XMP rights, creators and licences), `creation` (the date taken: EXIF DateTimeOriginal and DateTimeDigitized with their offsets and fractions, XMP and IPTC creation dates), `location` (the EXIF GPS directory, XMP GPS, IPTC and XMP place names; never kept unless asked). Rebuilt into every output format\'s own place; at most 64 KiB. Default: none.',
  );

/** A multipart text part holding a comma-separated list of names, checked by the same rule as its JSON array. */
export function listText<S extends z.ZodType<unknown, string[]>>(rule: S, names: readonly string[]) {
  return z
    .string()
    .transform((text) => (text.trim() === '' ? [] : text.split(',').map((name) => name.trim())))
    .pipe(rule)
    .describe(`Comma-separated, of ${names.join(', ')}. ${rule.description ?? ''}`.trim());
}

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
