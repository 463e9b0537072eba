import { readHeader } from '../../src/image/header/read-header';
import type { ImageHeader } from '../../src/image/types';

/** Reads the output of a response back through the same header parser the service uses. */
export async function responseImage(response: Response): Promise<{ bytes: Uint8Array; header: ImageHeader }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, header: readHeader(bytes) };
}
