/**
 * Lossless edits of image containers (JPEG segments, PNG chunks, WebP chunks): no pixel is decoded.
 * Used for the "never larger" fallback and to carry orientation and colour into encoded output.
 */
export type { ImageFormat } from '../types';
export { readOrientation } from './exif';
export { readIccProfile, readIccProfileWork, insertIccProfile } from './icc';
export { stripMetadata, stripMetadataWithReport, type StripResult } from './strip-metadata';
