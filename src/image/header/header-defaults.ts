import type { ImageHeader, InputHeader } from '../types';

/** A header with every format-specific field at its neutral value; each parser fills in its own. */
export function baseHeader<F extends InputHeader['format']>(format: F, width: number, height: number): Omit<ImageHeader, 'format'> & { format: F } {
  return {
    format,
    width,
    height,
    hasAlpha: false,
    grey: false,
    animated: false,
    progressive: false,
    arithmetic: false,
    sampling: [],
    coefficientsBuffered: false,
    scans: 0,
    scanBlocks: 0,
    refinedCoefficients: 0,
    steps: [],
    quality: 0,
    recodable: false,
    bitDepth: 8,
    colorType: 0,
    interlaced: false,
    lossless: false,
    fileBytes: 0,
    complete: true,
  };
}
