/** Wrangler and the vitest plugin import .wasm files as compiled WebAssembly.Module objects. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

/** The tests decode with jSquash, which exchanges pixels as ImageData: workerd lacks it, jSquash polyfills it. */
interface ImageData {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}
declare const ImageData: {
  new (data: Uint8ClampedArray, width: number, height?: number): ImageData;
};
