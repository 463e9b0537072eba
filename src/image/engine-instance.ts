import { jsquashEngine } from './codecs/jsquash-engine';
import type { ImageEngine } from './engine';

/** The engine the pipeline uses: the one line to change when the engine is replaced. */
export const engine: ImageEngine = jsquashEngine;
