import { ApiError } from '../../errors/api-error';

/** Fetches the image behind a user-supplied URL. Implemented by the URL input issue. */
export async function fetchImageFromUrl(_url: string): Promise<Uint8Array> {
  throw new ApiError('not_implemented', 'The url input is not implemented yet.');
}
