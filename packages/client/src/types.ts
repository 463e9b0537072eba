import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every `error` code the API answers with. */
export type ApiErrorCode = Schemas['Error']['error'];
/** A JPEG, PNG or WebP image, as the API names formats. */
export type ImageFormat = components['headers']['X-Output-Format'];
/** The API's compression options (quality 1..100, format, maxWidth, maxHeight, preserve). */
export type CompressOptionsOfApi = Partial<Pick<Schemas['CompressRequest'], 'quality' | 'format' | 'maxWidth' | 'maxHeight' | 'preserve'>>;
/** A class of metadata `preserve` keeps: `copyright`, `creation` or `location`. */
export type MetadataClass = NonNullable<Schemas['CompressRequest']['preserve']>[number];
/** GET /v1/usage as the API documents it. */
export type UsageResponse = Schemas['UsageResponse'];
