/** Wrangler and the vitest plugin import .wasm files as compiled WebAssembly.Module objects. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

/** jSquash's codecs exchange pixels as ImageData, which workerd lacks; jSquash polyfills it at run time. */
interface ImageData {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}
declare const ImageData: {
  new (data: Uint8ClampedArray, width: number, height?: number): ImageData;
};
