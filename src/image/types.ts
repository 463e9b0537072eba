/** The formats whose containers the service edits without decoding (metadata, profiles, never-larger); detected from the bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'webp';
/** The formats the engine decodes: those, AVIF (its container walked by header/heif-header.ts) and GIF (header/gif-header.ts; no GIF is written). */
export type DecodedFormat = ImageFormat | 'avif' | 'gif';
/** The formats the service writes: the three whose containers it edits, and AVIF. */
export type OutputFormat = ImageFormat | 'avif';
/** What an answer may be: an output format, or a GIF returned with its pixels untouched (`original-returned`). */
export type AnswerFormat = OutputFormat | 'gif';

/** What `preserve` may name (decisions.md, "Metadata the owner keeps"), in the order they are listed. */
export const METADATA_CLASSES = ['copyright', 'creation', 'location'] as const;
export type MetadataClass = (typeof METADATA_CLASSES)[number];

/** How an image goes into a width x height box (decisions.md, "Geometry: boxes, fit modes and gravity"). */
export const FIT_MODES = ['scale-down', 'contain', 'cover', 'crop', 'aspect-crop', 'pad'] as const;
export type FitMode = (typeof FIT_MODES)[number];
/** The largest box side a request may ask for. */
export const MAX_BOX_SIDE = 12_000;
/** Where a cut is centred, as fractions (0 to 1) of the upright source's width and height. */
export interface FocalPoint {
  x: number;
  y: number;
}
/** A focal point, or `auto`: the engine finds the subject (codecs/src/attention.c). */
export type Gravity = FocalPoint | 'auto';
/** The named gravities: each the focal point whose cut or placement lies against that side or corner. */
export const GRAVITY_SIDES = {
  center: { x: 0.5, y: 0.5 },
  top: { x: 0.5, y: 0 },
  bottom: { x: 0.5, y: 1 },
  left: { x: 0, y: 0.5 },
  right: { x: 1, y: 0.5 },
  'top-left': { x: 0, y: 0 },
  'top-right': { x: 1, y: 0 },
  'bottom-left': { x: 0, y: 1 },
  'bottom-right': { x: 1, y: 1 },
} as const satisfies Record<string, FocalPoint>;
export interface Size {
  width: number;
  height: number;
}
/** A rectangle of an image, in its pixels. */
export interface Box extends Size {
  left: number;
  top: number;
}
/** A colour as red, green, blue and alpha, 0 to 255 each. */
export type Rgba = readonly [number, number, number, number];
export const WHITE: Rgba = [255, 255, 255, 255];

export const MIME_TYPES: Record<AnswerFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/**
 * What the container header says about an image, read without decoding any pixels.
 * The memory model decides from this alone whether a job fits the isolate.
 */
export interface ImageHeader {
  format: DecodedFormat;
  width: number;
  height: number;
  /** True when any pixel may be non-opaque (alpha channel, tRNS, VP8X alpha flag, ALPH chunk). */
  hasAlpha: boolean;
  /** Greyscale input (JPEG with one component, PNG colour types 0 and 4). */
  grey: boolean;
  /** APNG (acTL before IDAT) or animated WebP (VP8X animation flag / ANIM chunk). */
  animated: boolean;
  /** JPEG: progressive (SOF2/SOF6/SOF10/SOF14) rather than sequential. */
  progressive: boolean;
  /** JPEG: arithmetic-coded (SOF9 to SOF15). */
  arithmetic: boolean;
  /** JPEG: the sampling factors of each component, in frame order (their count is the component count). */
  sampling: Array<{ h: number; v: number }>;
  /**
   * JPEG: the decoder holds every DCT coefficient of the image: progressive, or a first scan that
   * carries fewer components than the frame (a baseline file in several scans).
   */
  coefficientsBuffered: boolean;
  /** JPEG: the scans (SOS markers) the file has, counted by the walker, truncated files included. */
  scans: number;
  /**
   * JPEG: the 8x8 blocks its scans visit in all: each scan visits every block of its components, however
   * few bytes it takes (an EOB run codes 32,767 blocks in 15 bits), so this, not the file's size, is the
   * work of decoding into the coefficient buffer.
   */
  scanBlocks: number;
  /** JPEG: blocks times the coefficients of the band, summed over AC refinement scans (each visits every coefficient of its band). */
  refinedCoefficients: number;
  /** JPEG: the quantisation steps of each component (natural order), as its DQT segments define them; [] for others. */
  steps: number[][];
  /**
   * JPEG: its effective quality, from its quantisation tables: the libjpeg quality (1 to 100) whose standard
   * tables (T.81 Annex K, scaled as libjpeg scales them) are nearest its own. Lossy WebP: libwebp's quality read
   * from its quantisers (header/vp8-quality.ts). 0 for any other input.
   */
  quality: number;
  /**
   * JPEG: its coefficients can be written again as they are (a lossless re-coding): greyscale or three
   * components of at most 10 blocks an MCU, each quantisation table defined once.
   */
  recodable: boolean;
  /** PNG: bit depth, colour type and Adam7 interlacing. */
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** WebP: lossless (VP8L) bitstream. */
  lossless: boolean;
  /** The file's size in bytes (a WebP decoder holds the whole file). */
  fileBytes: number;
  /**
   * False when the data ends before the image does (no JPEG end-of-image, no PNG IEND, a RIFF size past
   * the end). Such input is refused, but only after the size check, so a bomb is named as one.
   */
  complete: boolean;
}

/** The ISO-BMFF formats read by container/bmff.ts: AVIF (AV1 items) and HEIC (HEVC items), both HEIF files. */
export type HeifFormat = 'avif' | 'heic';

/** A run of an item's bytes, as file offsets (iloc construction method 1's idat offsets already resolved). */
export interface Extent {
  offset: number;
  length: number;
}

/** One coded image item (`av01` or `hvc1`): its id, its bytes (the extents in order) and its size (ispe). */
export interface HeifCodedItem {
  id: number;
  extents: Extent[];
  width: number;
  height: number;
}

/**
 * An image as a decoder makes it: one coded item, or a `grid` of them (ISO/IEC 23008-12 6.6.2.3), each cell
 * coded alike. Its size is its ispe (a grid's output size, which the cells cover, the last row and column cut).
 */
export interface HeifPicture {
  /** The item: the coded image, or the grid. */
  id: number;
  width: number;
  height: number;
  codec: 'av01' | 'hvc1';
  /** The configuration box's body (av1C or hvcC, after its 8-byte header), a view into the file: every cell's. */
  config: Uint8Array;
  /** From the configuration: 8, 10 or 12 (av1C), 8 to 16 (hvcC luma); every cell's. */
  bitDepth: number;
  chroma: 'mono' | '420' | '422' | '444';
  /** The coded items: the one image, or the grid's cells in row-major order (rows x columns of them). */
  tiles: HeifCodedItem[];
  /** A grid's layout; absent for a single coded item. */
  grid?: { rows: number; columns: number };
}

/** colr: the coded colour (nclx, ISO/IEC 23091-2 code points) and/or an ICC profile (a view into the file). */
export interface HeifColour {
  nclx?: { primaries: number; transfer: number; matrix: number; fullRange: boolean };
  icc?: Uint8Array;
}

/**
 * What a HEIF/AVIF header says of the file's primary image, read without decoding: what a decoder needs
 * (items, extents, configuration) and how the decoded picture is displayed. Thumbnails, depth maps and
 * gain maps are not described (decisions.md, "Inputs phones and web sites produce").
 */
export interface HeifImage {
  /** ftyp's major brand, then its compatible brands. */
  brands: string[];
  primary: HeifPicture;
  /** The auxiliary alpha image (auxl to the primary, auxC's alpha URN), the primary's size. */
  alpha?: HeifPicture;
  /** The primary's colour is premultiplied by the alpha (a `prem` reference). */
  premultiplied: boolean;
  colour: HeifColour;
  /** clap: the clean aperture, in the decoded picture's pixels; applied first (MIAF's order). */
  clap?: Box;
  /**
   * irot and imir, composed in the order the item lists them, as the EXIF orientation (1 to 8) that
   * displays the picture (after clap); imir's axis 0 exchanges top and bottom, as libheif reads it.
   */
  orientation: number;
}

/**
 * A HEIF/AVIF input's header: the ImageHeader fields (width and height as displayed before irot/imir, that is
 * the clean aperture's or the picture's size; bitDepth, grey, hasAlpha, fileBytes; complete false when an
 * extent of the picture runs past the file's end) and the file's layout in `heif`.
 */
export interface HeifHeader extends Omit<ImageHeader, 'format'> {
  format: HeifFormat;
  heif: HeifImage;
}

/** One GIF frame as its graphic control extension and image descriptor describe it (header/gif-header.ts). */
export interface GifFrame {
  /** Its rectangle on the logical screen, clipped to the screen (empty when it lies wholly outside). */
  left: number;
  top: number;
  width: number;
  height: number;
  interlaced: boolean;
  /** The delay after it, in hundredths of a second. */
  delayCs: number;
  /** What is done with it before the next frame: 0 and 1 leave it, 2 clears it to transparent, 3 restores what was under it. */
  disposal: number;
  /** The palette index drawn as transparent, or null. */
  transparentIndex: number | null;
}

/** What a GIF's blocks say, walked without decoding: its frames (packed; gifFrame() reads one) and loop count. */
export interface GifImage {
  /** Seven 16-bit fields a frame: header/gif-header.ts packs them. */
  frames: Uint16Array;
  frameCount: number;
  /** NETSCAPE2.0's loop count: repeats after the first play, 0 forever; null when absent (played once). */
  loopCount: number | null;
  /** Entries in the global colour table (0: none). */
  globalColours: number;
  /**
   * The pixels the decoder makes of the first frame, its stored width times the rows it reads: down to the screen's
   * last, or all of them when interlaced (the rows of a pass come before the next's).
   */
  firstDecodedPixels: number;
  /** The pixels the decoder makes of every frame when it decodes them all: each frame's stored width times its height. */
  decodedPixels: number;
}

/**
 * A GIF input's header: width and height are the logical screen's; hasAlpha when a frame has a transparent index,
 * the first frame leaves part of the screen undrawn (transparent, as browsers draw it) or a frame is cleared to
 * the background before the next; animated when it has more than one frame; interlaced the first frame's.
 */
export interface GifHeader extends ImageHeader {
  format: 'gif';
  gif: GifImage;
}
export const isGifHeader = (header: InputHeader): header is GifHeader => header.format === 'gif';

/** An AVIF input's header: an ImageHeader the engine decodes, its layout in `heif` (wasm/avif-input.ts makes the engine's input from it). */
export type AvifHeader = HeifHeader & { format: 'avif' };
export const isAvif = (header: InputHeader): header is AvifHeader => header.format === 'avif' && 'heif' in header;

/** The header of any input the service recognises. */
export type InputHeader = ImageHeader | HeifHeader;

/** What a job must produce: the pipeline has already resolved `auto` and the fitted size. */
export interface OutputSpec {
  format: OutputFormat;
  /** 1 to 100, the encoder's own quality (the pipeline maps the service's one scale onto it: quality-scale.ts). */
  quality: number;
  /**
   * Target size in pixels as displayed (after orientation): the geometry's output (steps/geometry.ts).
   */
  width: number;
  height: number;
  /** The window cut from the upright source (after orientation), in its pixels; absent: the whole image. */
  window?: Box;
  /** Where the scaled window lies in the width x height output, and its size; absent: it fills the output. */
  placed?: Box;
  /** The colour of pad's margins and what alpha is flattened onto when the output has none; absent: white. */
  background?: Rgba;
  /** EXIF orientation (1 to 8) the engine applies to the pixels; absent means 1, as stored. */
  orientation?: number;
  /** An animated GIF's every frame, as an animated WebP (format webp): the geometry applies to each. */
  animated?: boolean;
  /** Bytes of the ICC profile the pipeline will carry into this output: its copies count against the budget. */
  iccBytes?: number;
  /**
   * JPEG to JPEG at the stored size without decoding pixels (codecs/src/jpeg-recode.c): the input's DCT coefficients
   * written again as they are (a lossless re-coding), progressive with optimised Huffman tables; `quality` is 100.
   */
  recode?: boolean;
  /**
   * JPEG to JPEG at the stored size and orientation: each step of the encoder's tables becomes the multiple of the
   * input's own step nearest to it, never finer, so what the input quantised is re-quantised on its own grid.
   */
  alignSteps?: boolean;
  /**
   * JPEG to JPEG at the stored size and orientation: a DC step of 7 becomes 8, one pixel level, so the input's flat
   * blocks (a DC of 8 times a whole level) are re-quantised exactly; from a smooth input (`smooth`: few bits per
   * pixel) steps of 5 and 6 as well. With `alignSteps`, only where 8 is a multiple of the input's DC step, or over
   * the input's step of 7: the chroma's from a smooth input, both tables' from a `flat` one (fewer bits still).
   */
  dcOnLevels?: 'detailed' | 'smooth' | 'flat';
}
