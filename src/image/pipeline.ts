import { ApiError } from '../errors/api-error';
import { PAID_CPU_BUDGET_MS } from '../limits/cpu';
import { ENGINE_BUDGET_BYTES } from '../limits/memory';
import { queuedJob, type ServerTiming } from '../timing/server-timing';
import { readIccProfileWork } from './container';
import { insertAvifMetadata } from './container/avif-items';
import { metadataBlocks } from './container/metadata-blocks';
import { readKeptMetadata } from './container/read-metadata';
import { insertMetadata } from './container/write-metadata';
import { engine } from './engine-instance';
import { readHeader, readInputHeader } from './header/read-header';
import type { InputSettings } from './input-settings';
import { runExclusive } from './job-queue';
import { encoderQuality } from './quality-scale';
import { carryIccProfile, profileToCarry } from './steps/carry-icc';
import { checkBudget, type JobCost, jobCost } from './steps/check-budget';
import { chooseFormats, type RequestedFormat } from './steps/choose-formats';
import { keepsEveryFrame, refuseGifFrames } from './steps/frame-area';
import { stripGif } from './container/gif-blocks';
import { planGeometry } from './steps/geometry';
import { neverLarger } from './steps/never-larger';
import { LOOK_LEAD, keepsEveryPixel, lookWindow, measuresLook, raisedLook, unmeasuredLook } from './steps/one-look';
import { LOOK_METRIC_BYTES_PER_PIXEL, lookScore } from './steps/look-metric';
import { orient } from './steps/orient';
import { losslessRecoding, onSourceGrid, preferRecoding } from './steps/jpeg-from-jpeg';
import { refuseAnimation } from './steps/refuse-animation';
import { refuseIncomplete } from './steps/refuse-incomplete';
import { refuseUndecoded } from './steps/refuse-undecoded';
import { candidateLookMs, profileReadMs } from './wasm/cpu-model';
import { avifNeverLarger, avifProfile } from './steps/avif-source';
import { type AnswerFormat, type Box, type FitMode, type Gravity, isAvif, isGifHeader, type MetadataClass, type OutputSpec, type Rgba } from './types';

export interface CompressRequest {
  quality: number;
  format: RequestedFormat;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
  /** The box and how the image goes into it (decisions.md, "Geometry: boxes, fit modes and gravity"). */
  width?: number | undefined;
  height?: number | undefined;
  fit?: FitMode | undefined;
  gravity?: Gravity | undefined;
  /** Pad's margins, and what alpha is flattened onto for JPEG; white unless given. */
  background?: Rgba | undefined;
  /** The request's Accept header lists image/webp (only consulted for format auto). */
  acceptsWebp: boolean;
  /** The request's Accept header lists image/avif (only consulted for format auto). */
  acceptsAvif?: boolean;
  /** The metadata classes to keep besides orientation and colour (decisions.md, "Metadata the owner keeps"). */
  preserve?: readonly MetadataClass[] | undefined;
  /** CPU time the request's jobs may take by the CPU model (src/limits/cpu.ts); a key's unless given (the demo's is smaller). */
  cpuBudgetMs?: number;
  /** The request's Server-Timing: the wait for the isolate's engine (`queue`) and the jobs (`engine`). */
  timing?: ServerTiming;
  /** The deployment's HEIC_INPUT (input-settings.ts); HEIC is let in unless given. */
  inputs?: InputSettings;
  /** `anim=false`: the first frame of an animated input, whatever the format; every frame where kept unless given. */
  anim?: boolean | undefined;
}

/** What was done to the image, for the X-Compression-Notes header (documented in the README). */
export type CompressionNote =
  | 'orientation-applied'
  | 'resized'
  | 'cropped'
  | 'padded'
  | 'converted'
  | 'alpha-flattened'
  | 'icc-kept'
  | 'lossless-recoded'
  | 'original-returned'
  | 'metadata-kept'
  | 'metadata-truncated'
  | 'format-kept-for-look'
  | 'first-frame';

export interface CompressResult {
  bytes: Uint8Array;
  format: AnswerFormat;
  notes: CompressionNote[];
  /** The window cut from the upright source, when one was (the X-Crop header). */
  crop?: Box | undefined;
}

/** What of the asked metadata an output carries. */
interface MetadataWritten {
  kept: boolean;
  truncated: boolean;
}

interface Candidate {
  spec: OutputSpec;
  bytes: Uint8Array;
  iccKept: boolean;
  metadata: MetadataWritten;
}

/**
 * The image path, as an ordered list of small steps: read the header (no decode), refuse what cannot
 * be done, read the EXIF orientation and the colour profile, fit the size as displayed, choose formats,
 * check the memory and CPU budgets of the job the client asked for before any runs (a bomb is named as
 * one even when truncated), refuse truncated data, then transcode one job at a time, carry the colour
 * profile over, and keep the smallest acceptable result. An alternative format (WebP for `auto`) is
 * optional: it runs only when it fits beside the first job, and is skipped if it fails.
 */
export async function compressImage(input: Uint8Array, request: CompressRequest): Promise<CompressResult> {
  const header = readInputHeader(input);
  refuseUndecoded(header, request.inputs ?? { heic: true });
  const anim = request.anim ?? true;
  const keepsFrames = keepsEveryFrame(request.format, request.acceptsWebp, anim);
  if (isGifHeader(header)) refuseGifFrames(header, keepsFrames);
  else refuseAnimation(header);
  // Every frame of an animated GIF, as an animated WebP: the one candidate (auto answers the GIF when that is smaller).
  const animated = header.format === 'gif' && header.animated && keepsFrames;
  // The container whose profile is read: an AVIF's is its colr (avif-source.ts); a GIF has none, nor metadata (its pixels go on as a PNG's would).
  const container = header.format === 'gif' || header.format === 'avif' ? null : header.format;
  const { orientation, ...displayed } = orient(input, header);
  const geometry = planGeometry(displayed, request);
  const reshaped = geometry.cropped || geometry.padded || geometry.resized;
  // An animated GIF for auto without WebP, every frame asked for and no geometry: returned, its pixels untouched (decisions.md).
  if (header.format === 'gif' && header.animated && anim && request.format === 'auto' && !keepsFrames && !reshaped) {
    refuseIncomplete(header);
    return { bytes: stripGif(input).bytes, format: 'gif', notes: ['original-returned'] };
  }
  const size = { width: geometry.width, height: geometry.height };
  const framing = {
    ...(geometry.cropped ? { window: geometry.window } : {}),
    ...(geometry.padded ? { placed: geometry.placed } : {}),
    ...(request.background ? { background: request.background } : {}),
  };
  // A truncated file is refused below; its profile is not worth reading before the check names a bomb.
  const read =
    !header.complete || !container
      ? { profile: isAvif(header) && header.complete ? avifProfile(header) : null, inflatedFrom: 0 }
      : await readIccProfileWork(input, container);
  const icc = read.profile;
  // Its inflating (bounded: bounded-inflate.ts) is the request's CPU too, charged as the engine charges PNG input.
  const profileMs = profileReadMs(read.inflatedFrom);
  // What the outputs carry of it (carry-icc.ts: not a plain sRGB one, nor one past what a profile may add).
  const carried = profileToCarry(icc, input.length);
  const iccBytes = carried?.length ?? 0;
  const accepted = { webp: request.acceptsWebp, avif: request.acceptsAvif ?? false };
  const [primary, ...otherFormats] = chooseFormats(header.format, animated ? 'webp' : request.format, accepted, size, header.hasAlpha).map(
    (format): OutputSpec =>
      onSourceGrid(header, { format, quality: encoderQuality(format, request.quality), ...size, ...framing, orientation, iccBytes, ...(animated ? { animated } : {}) }),
  );
  // auto's other formats at the look of the input-format candidate (steps/one-look.ts): measured on a window of an output
  // kept as stored, else made at the scale's quality (from PNG, from a photo only). An AVIF input's candidates are all
  // re-drawn from its pixels at the scale's quality.
  const lookBox = otherFormats.length && measuresLook(header, primary!) ? lookWindow(header) : undefined;
  const optional = header.format === 'avif' || lookBox ? otherFormats : otherFormats.flatMap((spec) => unmeasuredLook(header, spec, request.quality) ?? []);
  let lookSkipped = optional.length < otherFormats.length;
  const cpuBudgetMs = request.cpuBudgetMs ?? PAID_CPU_BUDGET_MS;
  // What the jobs may take: the budget less the profile's reading.
  const jobsBudgetMs = cpuBudgetMs - profileMs;
  // gravity=auto: the first job finds the window (engine.transcodeToSubject) and every other candidate cuts it.
  const smartCrop = request.gravity === 'auto' && geometry.cropped;
  const primaryCost = smartCrop ? engine.estimateSubject(header, primary!) : jobCost(engine, header, primary!);
  checkBudget(header, primary!, { ...primaryCost, cpuMs: primaryCost.cpuMs + profileMs }, cpuBudgetMs);
  let cpuMs = primaryCost.cpuMs;
  // The look's work: the input's window and the input-format candidate's, once; each candidate's, with the candidate.
  const pixels = header.width * header.height;
  const windowPixels = lookBox ? lookBox.width * lookBox.height : 0;
  const inputLook = lookBox && engine.estimateWindow(header, lookBox);
  const firstLookMs = inputLook ? inputLook.cpuMs + candidateLookMs(primary!.format, pixels, windowPixels) : 0;
  const lookBytes = inputLook ? Math.max(inputLook.peakBytes, windowPixels * (3 * 3 + LOOK_METRIC_BYTES_PER_PIXEL)) : 0;
  const lookMs = (spec: OutputSpec) => (lookBox ? candidateLookMs(spec.format, pixels, windowPixels) + (cpuMs === primaryCost.cpuMs ? firstLookMs : 0) : 0);
  const alternatives: Array<{ spec: OutputSpec; cost: JobCost }> = [];
  for (const spec of optional) {
    const cost = jobCost(engine, header, spec);
    if (cost.peakBytes > ENGINE_BUDGET_BYTES || cpuMs + cost.cpuMs > jobsBudgetMs) continue;
    // A candidate whose look does not fit is not made: the input's format is kept for its look.
    const measured = { ...cost, cpuMs: cost.cpuMs + lookMs(spec) };
    if (lookBytes > ENGINE_BUDGET_BYTES || cpuMs + measured.cpuMs > jobsBudgetMs) {
      lookSkipped = true;
      continue;
    }
    alternatives.push({ spec, cost: measured });
    cpuMs += measured.cpuMs;
  }
  // A JPEG's lossless re-coding, never-larger's first choice: only where it fits its budgets beside the first job.
  let recoding = losslessRecoding(header, primary!);
  if (recoding) {
    const cost = jobCost(engine, header, recoding);
    if (cost.peakBytes > ENGINE_BUDGET_BYTES || cpuMs + cost.cpuMs > jobsBudgetMs) recoding = undefined;
    else cpuMs += cost.cpuMs;
  }
  refuseIncomplete(header);
  const keptMetadata = request.preserve?.length && header.format !== 'gif' ? await readKeptMetadata(input, header.format, request.preserve) : null;

  // JS buffers the request holds count against the engine's budget until it is answered.
  const releases: Array<() => void> = [];
  let heldBytes = 0;
  const hold = (bytes: Uint8Array): Uint8Array => {
    releases.push(engine.holdJs(bytes.byteLength));
    heldBytes += bytes.byteLength;
    return bytes;
  };
  // The request's CPU budget is enforced while its jobs run too (the clock as the engine reads it): each job gets what is left.
  let jobsStartedMs: number | undefined;
  let window = geometry.window;
  // The first job of gravity=auto places the window; the others cut it.
  const transcode = async (spec: OutputSpec, limits: { cpuBudgetMs: number; profile?: Uint8Array }, toSubject: boolean) => {
    if (!toSubject) return engine.transcode(input, header, spec, limits);
    const found = await engine.transcodeToSubject(input, header, spec, limits);
    window = found.window;
    return found.bytes;
  };
  const encode = async (spec: OutputSpec, toSubject = false): Promise<Candidate> => {
    jobsStartedMs ??= Date.now();
    const limits = { cpuBudgetMs: jobsBudgetMs - (Date.now() - jobsStartedMs) };
    // AVIF's container is the engine's own: the profile goes in as it is written.
    if (spec.format === 'avif') {
      const profile = carried ?? undefined;
      const encoded = hold(await transcode(spec, { ...limits, profile }, toSubject));
      const blocks = metadataBlocks(keptMetadata, 'avif');
      const { bytes, written } = insertAvifMetadata(encoded, blocks);
      if (bytes !== encoded) hold(bytes);
      const metadata = written ? { kept: blocks.kept, truncated: blocks.truncated } : { kept: false, truncated: blocks.kept };
      return { spec, bytes, iccKept: profile !== undefined, metadata };
    }
    const encoded = hold(await transcode(spec, limits, toSubject));
    const withProfile = await carryIccProfile(encoded, spec.format, carried);
    if (withProfile.bytes !== encoded) hold(withProfile.bytes);
    const blocks = metadataBlocks(keptMetadata, spec.format);
    const bytes = insertMetadata(withProfile.bytes, spec.format, blocks);
    if (bytes !== withProfile.bytes) hold(bytes);
    return { spec, bytes, iccKept: withProfile.iccKept, metadata: { kept: blocks.kept, truncated: blocks.truncated } };
  };
  // An optional job: skipped when it fails on its own (a re-coding the engine cannot do, a candidate past the budget).
  const attempt = async (spec: OutputSpec): Promise<Candidate | undefined> => {
    try {
      return await encode(spec);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return undefined;
    }
  };
  const placed = (spec: OutputSpec): OutputSpec => (smartCrop ? { ...spec, window } : spec);
  // The look of an output kept as stored: its window decoded and scored against the input's (steps/look-metric.ts);
  // undefined where a decode does not fit what is left of the budgets.
  let inputPixels: Uint8Array | undefined;
  const lookOf = async (bytes: Uint8Array, box: Box): Promise<number | undefined> => {
    const limits = { cpuBudgetMs: jobsBudgetMs - (Date.now() - (jobsStartedMs ?? Date.now())) };
    const decoded = readHeader(bytes);
    if (engine.estimateWindow(decoded, box).peakBytes + heldBytes > ENGINE_BUDGET_BYTES) return undefined;
    try {
      inputPixels ??= hold(await engine.decodeWindow(input, header, box, limits));
      const pixels = hold(await engine.decodeWindow(bytes, decoded, box, limits));
      const release = engine.holdJs(box.width * box.height * LOOK_METRIC_BYTES_PER_PIXEL);
      try {
        return lookScore(inputPixels, pixels, box.width, box.height);
      } finally {
        release();
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return undefined;
    }
  };
  // A candidate that looks at least LOOK_LEAD better than `target`; else once more LOOK_STEP higher, where that fits the CPU budget.
  const atLook = async (candidate: Candidate, target: number, box: Box, cost: JobCost): Promise<Candidate | undefined> => {
    const look = await lookOf(candidate.bytes, box);
    if (look !== undefined && look >= target + LOOK_LEAD) return candidate;
    const raised = raisedLook(candidate.spec);
    if (look === undefined || !raised || cpuMs + cost.cpuMs > jobsBudgetMs) return undefined;
    cpuMs += cost.cpuMs;
    const again = await attempt(raised);
    const lookAgain = again && (await lookOf(again.bytes, box));
    return lookAgain !== undefined && lookAgain >= target + LOOK_LEAD ? again : undefined;
  };
  // auto makes a GIF a PNG: a format change not asked for, so never-larger may answer the GIF.
  const changeAsked = reshaped || (primary!.format !== header.format && !(header.format === 'gif' && request.format === 'auto'));
  try {
    const { kept, others } = await runExclusive(cpuMs, queuedJob(request.timing, async () => {
      // Run once, whichever rule asks for it first.
      let recoded: Promise<Candidate | undefined> | undefined;
      const recode = recoding && (() => (recoded ??= attempt(recoding!)));
      const first = await preferRecoding(header, await encode(primary!, smartCrop), recode);
      const kept =
        header.format === 'avif' ? avifNeverLarger(input, first, changeAsked, keptMetadata) : await neverLarger(input, header.format, first, changeAsked, async () => recode?.(), keptMetadata);
      const others: Candidate[] = [];
      // Kept pixel for pixel (re-coded, or the original): no lossy candidate has that look.
      if (alternatives.length && keepsEveryPixel(kept)) {
        lookSkipped = true;
        return { kept, others };
      }
      const target = lookBox && alternatives.length ? await lookOf(kept.candidate.bytes, lookBox) : undefined;
      for (const { spec, cost } of alternatives) {
        // Beside what the first job left in hand; the engine enforces it too.
        if (cost.peakBytes + heldBytes > ENGINE_BUDGET_BYTES) continue;
        let done = await attempt(placed(spec));
        if (done && lookBox) {
          done = target === undefined ? undefined : await atLook(done, target, lookBox, cost);
          if (!done) lookSkipped = true;
        }
        if (done) others.push(done);
      }
      return { kept, others };
    }));

    let best = kept.original
      ? { ...kept.candidate, bytes: hold(kept.original.bytes), originalReturned: true, iccKept: icc !== null, metadata: kept.original.metadata }
      : { ...kept.candidate, originalReturned: false };
    // Alternatives come as WebP, then AVIF: on a tie the later one is kept (the original wins its ties).
    for (const candidate of others) {
      const smaller = best.originalReturned ? candidate.bytes.length < best.bytes.length : candidate.bytes.length <= best.bytes.length;
      if (smaller) best = { ...candidate, originalReturned: false };
    }

    const notes: CompressionNote[] = [];
    if (header.animated && !best.originalReturned && !best.spec.animated) notes.push('first-frame');
    if (best.originalReturned) notes.push('original-returned');
    else if (best.spec.recode) notes.push('lossless-recoded');
    else {
      if (orientation !== 1) notes.push('orientation-applied');
      if (geometry.cropped) notes.push('cropped');
      if (geometry.resized) notes.push('resized');
      if (geometry.padded) notes.push('padded');
      if (best.spec.format !== header.format) notes.push('converted');
      if (header.hasAlpha && best.spec.format === 'jpeg') notes.push('alpha-flattened');
    }
    if (lookSkipped && best.spec.format === header.format) notes.push('format-kept-for-look');
    if (best.iccKept) notes.push('icc-kept');
    if (best.metadata.kept) notes.push('metadata-kept');
    if (best.metadata.truncated) notes.push('metadata-truncated');
    const format = best.originalReturned ? header.format : best.spec.format;
    return { bytes: best.bytes, format, notes, crop: geometry.cropped ? window : undefined };
  } finally {
    for (const release of releases) release();
  }
}
