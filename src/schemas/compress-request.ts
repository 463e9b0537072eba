import { z } from 'zod';
import { METADATA_CLASSES } from '../image/types';
import { base64Image, imageFile, integerText, listText, maxHeight, maxWidth, outputFormat, preserve, quality } from './fields';

/** POST /v1/compress with application/json (CompressRequest). */
export const compressJsonBody = z.strictObject({
  image: base64Image.optional(),
  url: z.string().describe('Public https image URL; takes priority over image').optional(),
  quality: quality.default(80),
  format: outputFormat.default('auto'),
  maxWidth: maxWidth.optional(),
  maxHeight: maxHeight.optional(),
  preserve: preserve.optional(),
});

/** POST /v1/compress with multipart/form-data (CompressMultipartRequest). */
export const compressMultipartBody = z.strictObject({
  file: imageFile.optional(),
  quality: integerText(quality).default(80),
  format: outputFormat.default('auto'),
  maxWidth: integerText(maxWidth).optional(),
  maxHeight: integerText(maxHeight).optional(),
  preserve: listText(preserve, METADATA_CLASSES).optional(),
});

export type CompressOptions = Omit<z.output<typeof compressJsonBody>, 'image' | 'url'>;
