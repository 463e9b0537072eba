import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every `error` code the API answers with. */
export type ApiErrorCode = Schemas['Error']['error'];
/** A JPEG, PNG or WebP image, as the API names formats. */
export type ImageFormat = components['headers']['X-Output-Format'];
/** How the image goes into the width x height box: `scale-down` (default), `contain`, `cover`, `crop`, `aspect-crop` or `pad`. */
export type Fit = NonNullable<Schemas['CompressRequest']['fit']>;
/** Which part a cut keeps, or where pad places the image: a side or corner, or a focal point `XxY` (fractions 0 to 1). */
export type Gravity = 'auto' | 'center' | 'top' | 'bottom' | 'left' | 'right' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | `${number}x${number}`;
/** `#rgb`, `#rrggbb`, `#rrggbbaa` or `transparent`. */
export type Background = `#${string}` | 'transparent';
/** The API's compression options (quality 1..100, format, maxWidth, maxHeight, the width x height box with fit, gravity and background, preserve). */
export type CompressOptionsOfApi = Partial<
  Pick<Schemas['CompressRequest'], 'quality' | 'format' | 'maxWidth' | 'maxHeight' | 'width' | 'height' | 'preserve'> & { fit: Fit; gravity: Gravity; background: Background }
>;
/** A class of metadata `preserve` keeps: `copyright`, `creation` or `location`. */
export type MetadataClass = NonNullable<Schemas['CompressRequest']['preserve']>[number];
/** GET /v1/usage as the API documents it. */
export type UsageResponse = Schemas['UsageResponse'];
