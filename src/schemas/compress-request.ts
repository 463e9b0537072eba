import { z } from 'zod';
import { base64Image, dimension, imageFile, integerText, outputFormat, quality } from './fields';

/** POST /v1/compress with application/json (CompressRequest). */
export const compressJsonBody = z.strictObject({
  image: base64Image.optional(),
  url: z.string().describe('Public https image URL; takes priority over image').optional(),
  quality: quality.default(80),
  format: outputFormat.default('auto'),
  maxWidth: dimension.optional(),
  maxHeight: dimension.optional(),
});

/** POST /v1/compress with multipart/form-data (CompressMultipartRequest). */
export const compressMultipartBody = z.strictObject({
  file: imageFile.optional(),
  quality: integerText(quality).default(80),
  format: outputFormat.default('auto'),
  maxWidth: integerText(dimension).optional(),
  maxHeight: integerText(dimension).optional(),
});

export type CompressOptions = Omit<z.output<typeof compressJsonBody>, 'image' | 'url'>;
