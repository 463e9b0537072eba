import type { ImageEngine } from './engine';
import { wasmEngine } from './wasm';

/** The engine the pipeline uses: the one line to change when the engine is replaced. */
export const engine: ImageEngine = wasmEngine;
