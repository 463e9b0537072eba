import { parseArgs } from 'node:util';
import type { Background, CompressOptions, Fit, Gravity, MetadataClass } from '@squeeze-edge/client';
import { UsageError } from './exit-codes.js';

export const HELP = `squeeze: make JPEG, PNG and WebP images smaller with the Squeeze Edge API.

Usage:
  squeeze [compress] <files|dirs|-> [options]   compress files, folders (recursively) or stdin (-)
  squeeze check <files|dirs> [options]           CI gate: are they all done? (no API calls)
  squeeze usage [--json]                         this month's usage of your account, and this key's share

Output (never destroys the input by default):
  (default)              write NAME.min.EXT beside each input (EXT follows the output format)
  -o, --out-dir DIR      write into DIR, mirroring the input tree
      --in-place         replace each input (atomically); --backup keeps NAME.orig.EXT
      --force            overwrite existing outputs (otherwise they stop the run before any upload),
                         and send again files the API refused before (413)

Compression:
  -q, --quality N        1-100 (default 80)
  -f, --format F         auto, jpeg, png, webp or avif (default auto: keep the input's format)
      --allow-webp       with auto, take WebP when smaller at the same look
      --allow-avif       with auto, take AVIF when smaller at the same look (with --allow-webp: either)
      --max-width N      scale down to fit, keeping the aspect ratio
      --max-height N
      --width N, --height N  a box (1-12000), filled as --fit says; not with --max-width/--max-height
      --fit MODE         scale-down (default: inside the box, never enlarged), contain (may enlarge),
                         cover (exactly the box, cut by --gravity), crop (as cover, never enlarged),
                         aspect-crop (cut to the box's aspect, then scaled down), pad (contain, then
                         padded with --background); all but scale-down and contain need both sides
      --gravity G        what a cut keeps: center (default), top, bottom, left, right, top-left,
                         top-right, bottom-left, bottom-right, a focal point XxY (0 to 1, e.g. 0.5x0.3),
                         or auto (the subject: what is in focus)
      --background C     pad's margins and JPEG's matte: #rgb, #rrggbb, #rrggbbaa or transparent
      --preserve LIST    keep metadata besides orientation and colour, comma-separated: copyright,
                         creation, location (GPS and place names only when named); default none

Running:
  -c, --concurrency N    uploads at a time, 1-16 (default 4); paced by the RateLimit header, paused on 429
  -n, --dry-run          show what would be sent, what would fail, and the quota it needs against
                         the quota left
      --manifest FILE    the record of done work (default: squeeze-manifest.json in the outputs'
                         folder, or the nearest one above it; commit it for CI)
      --no-manifest      neither read nor write it
      --json             print exactly one JSON document on stdout (human text stays on stderr)
      --key-file FILE    read the key from FILE
      --base-url URL     the API (default $SQUEEZE_BASE_URL)
  -h, --help, --version

Key: --key-file, else $SQUEEZE_API_KEY, else $SQUEEZE_API_KEY_FILE, else ~/.config/squeeze/api-key;
sqz_ and 32 letters, digits, - or _ (anything else is refused before it is sent).
Endpoint: https, or plain http to a loopback address only. Redirects are not followed: the key and
the images go to that address only.
Folders: .jpg .jpeg .png .webp .avif .gif files, recursively; hidden folders, node_modules and our own NAME.min.EXT and
NAME.orig.EXT files are skipped. A file named on the command line is always taken.

Exit codes: 0 done (or nothing to do), 1 some files failed, 2 bad usage or configuration (nothing sent),
3 stopped by unauthorized or quota_exceeded (--dry-run: the quota left is too small), 130 interrupted.
`;

export type Command = 'compress' | 'check' | 'usage';
export type Format = 'auto' | 'jpeg' | 'png' | 'webp' | 'avif';
const METADATA_CLASSES: readonly MetadataClass[] = ['copyright', 'creation', 'location'];
const FITS: readonly Fit[] = ['scale-down', 'contain', 'cover', 'crop', 'aspect-crop', 'pad'];
const GRAVITY_SIDES = ['auto', 'center', 'top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right'];
const FRACTION = '(?:0|1|0?\\.\\d+|[01]\\.0*)';
const FOCAL_POINT = new RegExp(`^${FRACTION}x${FRACTION}$`);
const COLOUR = /^(?:#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})|transparent)$/i;

export interface Args {
  command: Command | 'help' | 'version';
  paths: string[];
  outDir?: string;
  inPlace: boolean;
  backup: boolean;
  force: boolean;
  quality?: number;
  format?: Format;
  allowWebp: boolean;
  allowAvif: boolean;
  maxWidth?: number;
  maxHeight?: number;
  width?: number;
  height?: number;
  fit?: Fit;
  gravity?: Gravity;
  background?: Background;
  /** The metadata classes to keep, each once, in METADATA_CLASSES' order. */
  preserve?: MetadataClass[];
  concurrency: number;
  dryRun: boolean;
  manifest?: string;
  noManifest: boolean;
  json: boolean;
  keyFile?: string;
  baseUrl?: string;
}

/** The client's compression options that the command line sets. */
export function compressOptions(args: Args): CompressOptions {
  const { quality, format, maxWidth, maxHeight, width, height, fit, gravity, background, preserve, allowWebp, allowAvif } = args;
  return { quality, format, maxWidth, maxHeight, width, height, fit, gravity, background, preserve, allowWebp, allowAvif };
}

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  return n;
}

/** `--fit`, `--gravity` and `--background`, checked as the API checks them. */
function geometry(v: { fit?: string | undefined; gravity?: string | undefined; background?: string | undefined }): Pick<Args, 'fit' | 'gravity' | 'background'> {
  if (v.fit !== undefined && !(FITS as readonly string[]).includes(v.fit)) throw new UsageError(`--fit must be ${FITS.join(', ')}, not ${JSON.stringify(v.fit)}.`);
  const gravity = v.gravity;
  if (gravity !== undefined && !GRAVITY_SIDES.includes(gravity) && !(FOCAL_POINT.test(gravity) && gravity.split('x').every((n) => Number(n) <= 1))) {
    throw new UsageError(`--gravity must be ${GRAVITY_SIDES.join(', ')} or a focal point XxY (X and Y from 0 to 1), not ${JSON.stringify(gravity)}.`);
  }
  if (v.background !== undefined && !COLOUR.test(v.background)) throw new UsageError(`--background must be #rgb, #rrggbb, #rrggbbaa or transparent, not ${JSON.stringify(v.background)}.`);
  return { fit: v.fit as Fit | undefined, gravity: gravity as Gravity | undefined, background: v.background as Background | undefined };
}

/** `--preserve a,b`: names of METADATA_CLASSES, spaces and repeats allowed. */
function metadataClasses(value: string | undefined): MetadataClass[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !(METADATA_CLASSES as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new UsageError(`--preserve takes a comma-separated list of ${METADATA_CLASSES.join(', ')}, not ${JSON.stringify(unknown)}.`);
  }
  return METADATA_CLASSES.filter((name) => names.includes(name));
}

/** The command line, checked: anything wrong is a UsageError (exit 2) before anything is read or sent. */
export function parseCommandLine(argv: string[]): Args {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'out-dir': { type: 'string', short: 'o' },
        'in-place': { type: 'boolean', default: false },
        backup: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        quality: { type: 'string', short: 'q' },
        format: { type: 'string', short: 'f' },
        'allow-webp': { type: 'boolean', default: false },
        'allow-avif': { type: 'boolean', default: false },
        'max-width': { type: 'string' },
        'max-height': { type: 'string' },
        width: { type: 'string' },
        height: { type: 'string' },
        fit: { type: 'string' },
        gravity: { type: 'string' },
        background: { type: 'string' },
        preserve: { type: 'string' },
        concurrency: { type: 'string', short: 'c' },
        'dry-run': { type: 'boolean', short: 'n', default: false },
        manifest: { type: 'string' },
        'no-manifest': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'key-file': { type: 'string' },
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values: v, positionals } = parsed;
  let command: Args['command'] = 'compress';
  let paths = positionals;
  if (positionals[0] === 'compress' || positionals[0] === 'check' || positionals[0] === 'usage') {
    command = positionals[0];
    paths = positionals.slice(1);
  }
  if (v.help) command = 'help';
  else if (v.version) command = 'version';

  const format = v.format;
  if (format !== undefined && !['auto', 'jpeg', 'png', 'webp', 'avif'].includes(format)) {
    throw new UsageError(`--format must be auto, jpeg, png, webp or avif, not ${JSON.stringify(format)}.`);
  }
  const args: Args = {
    command,
    paths,
    outDir: v['out-dir'],
    inPlace: v['in-place'],
    backup: v.backup,
    force: v.force,
    quality: integer('quality', v.quality, 1, 100),
    format: format as Format | undefined,
    allowWebp: v['allow-webp'],
    allowAvif: v['allow-avif'],
    maxWidth: integer('max-width', v['max-width'], 1, 1_000_000),
    maxHeight: integer('max-height', v['max-height'], 1, 1_000_000),
    width: integer('width', v.width, 1, 12_000),
    height: integer('height', v.height, 1, 12_000),
    ...geometry(v),
    preserve: metadataClasses(v.preserve),
    concurrency: integer('concurrency', v.concurrency, 1, 16) ?? 4,
    dryRun: v['dry-run'],
    manifest: v.manifest,
    noManifest: v['no-manifest'],
    json: v.json,
    keyFile: v['key-file'],
    baseUrl: v['base-url'],
  };
  if (command === 'help' || command === 'version') return args;
  if (command === 'usage' && paths.length) throw new UsageError('usage takes no paths.');
  if (command !== 'usage' && paths.length === 0) throw new UsageError('Name the files or folders to compress (or - for stdin). See squeeze --help.');
  if (args.inPlace && args.outDir !== undefined) throw new UsageError('--in-place and --out-dir exclude each other.');
  if ((args.width !== undefined || args.height !== undefined) && (args.maxWidth !== undefined || args.maxHeight !== undefined)) {
    throw new UsageError('--width/--height and --max-width/--max-height exclude each other: --max-width/--max-height are --fit scale-down into that box.');
  }
  if (args.fit && args.fit !== 'scale-down' && args.fit !== 'contain' && (args.width === undefined || args.height === undefined)) {
    throw new UsageError(`--fit ${args.fit} needs both --width and --height.`);
  }
  if (args.backup && !args.inPlace) throw new UsageError('--backup goes with --in-place.');
  if (args.inPlace && ((args.format && args.format !== 'auto') || args.allowWebp || args.allowAvif)) {
    throw new UsageError('--in-place keeps each file\'s name, so it cannot change its format: use --out-dir or the default NAME.min.EXT.');
  }
  for (const [allowed, flag] of [[args.allowWebp, '--allow-webp'], [args.allowAvif, '--allow-avif']] as const) {
    if (allowed && args.format && args.format !== 'auto') throw new UsageError(`${flag} goes with --format auto.`);
  }
  if (args.manifest !== undefined && args.noManifest) throw new UsageError('--manifest and --no-manifest exclude each other.');
  if (paths.includes('-')) {
    if (paths.length > 1 || command !== 'compress') throw new UsageError('- (stdin) must be the only input, of compress.');
    if (args.json || args.dryRun || args.outDir !== undefined || args.inPlace) {
      throw new UsageError('- (stdin) writes the image to stdout: --json, --dry-run, --out-dir and --in-place do not apply.');
    }
  }
  return args;
}
