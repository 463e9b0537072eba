import engineWasm from '../../../codecs/dist/engine.wasm';
import { createWasmEngine } from './wasm-engine';

export { estimatePeakBytes } from './memory-model';
export { createWasmEngine, type WasmEngine, type WasmEngineOptions } from './wasm-engine';

/** The engine on the committed module; wrangler imports a .wasm file as a compiled module. */
export const wasmEngine = createWasmEngine(engineWasm);
