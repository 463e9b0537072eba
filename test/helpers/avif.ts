import decodeAvif, { init as initAvifDecoder } from '@jsquash/avif/decode.js';
import avifDecoderWasm from '@jsquash/avif/codec/dec/avif_dec.wasm';

let decoderReady: Promise<unknown> | undefined;

/** RGBA pixels of an AVIF by jSquash's decoder (libavif and dav1d): an independent reader of ours. */
export async function avifPixels(bytes: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  await (decoderReady ??= initAvifDecoder(avifDecoderWasm));
  const image = await decodeAvif(bytes.slice().buffer);
  if (!image) throw new Error('jSquash could not decode the AVIF');
  return image;
}

export { avifLayout, avifMetadataItems } from './avif-layout';
