import { z } from 'zod';
import { FIT_MODES, GRAVITY_SIDES, MAX_BOX_SIDE, METADATA_CLASSES, type Gravity, type Rgba } from '../image/types';

/** The request parameters' rules, shared by the JSON and multipart forms of a request. */
// Written for the people who read /docs; how the one scale is fitted to each encoder is in the README.
export const quality = z.number().int().min(1).max(100).describe(
  'Visual quality, from 1 (smallest file) to 100 (best look). The default, 80, suits most photos; 60 to 75 makes smaller files where fine detail matters less. The same number gives about the same look in JPEG, WebP, AVIF and PNG output. For PNG, 100 is lossless; below 100 the colours are reduced to a palette of at most 256, and a graphic with few colours comes back exact.',
);
export const outputFormat = z
  .enum(['auto', 'jpeg', 'png', 'webp', 'avif'])
  .describe('auto keeps the input format, or returns WebP or AVIF when Accept lists image/webp or image/avif and it is smaller');
const dimension = z.number().int().min(1);
const fitTo = (side: 'width' | 'height') =>
  `Largest ${side} of the result, in pixels, as the image is displayed (after its EXIF rotation). A larger image is scaled down to fit, keeping its aspect ratio; a smaller one is never enlarged.`;
export const maxWidth = dimension.describe(fitTo('width'));
export const maxHeight = dimension.describe(fitTo('height'));

const boxSide = (side: 'width' | 'height') =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_BOX_SIDE)
    .describe(
      `The box's ${side}, in pixels (1 to ${MAX_BOX_SIDE}), as the image is displayed (after its EXIF rotation); \`fit\` says how the image goes into the box. Not with maxWidth/maxHeight.`,
    );
export const boxWidth = boxSide('width');
export const boxHeight = boxSide('height');
export const fit = z
  .enum(FIT_MODES)
  .describe(
    'How the image goes into the width x height box. `scale-down` (default): the largest size inside the box with the image\'s aspect, never enlarged. `contain`: the same, enlarged if need be. `cover`: exactly the box, scaled to cover it and the overflow cut off by `gravity`. `crop`: as cover but never enlarged (a source smaller than the box on both sides is kept whole). `aspect-crop`: cut to the box\'s aspect by `gravity`, then scaled down to fit if larger. `pad`: as contain, then padded with `background` to exactly the box, placed by `gravity`. scale-down and contain take one side alone; the others need both.',
  );

const GRAVITY_NAMES = [...Object.keys(GRAVITY_SIDES), 'auto'].join(', ');
/** A fraction from 0 to 1, written as a plain decimal. */
const FRACTION = /^(?:0|1|0?\.\d+|[01]\.0*)$/;
export const gravity = z
  .string()
  .transform((text, ctx): Gravity => {
    if (text === 'auto') return 'auto';
    const side = Object.hasOwn(GRAVITY_SIDES, text) ? GRAVITY_SIDES[text as keyof typeof GRAVITY_SIDES] : undefined;
    if (side) return side;
    const [x, y, ...rest] = text.split('x');
    if (x !== undefined && y !== undefined && rest.length === 0 && FRACTION.test(x) && FRACTION.test(y) && Number(x) <= 1 && Number(y) <= 1) {
      return { x: Number(x), y: Number(y) };
    }
    ctx.addIssue({ code: 'custom', message: `expected ${GRAVITY_NAMES}, or a focal point XxY (X and Y from 0 to 1, e.g. 0.25x0.6)` });
    return z.NEVER;
  })
  .describe(
    `Which part of the image a cut keeps (cover, crop, aspect-crop) and where pad places it: ${GRAVITY_NAMES} (default center), or a focal point \`XxY\`, fractions from 0 to 1 of the displayed image's width and height (e.g. \`0.25x0.6\`), on which the cut is centred as nearly as the image allows. \`auto\` keeps what draws the eye: what is in focus (fine detail), and its saturated colours and skin tones (pad centres). Has no effect with a fit that cuts nothing.`,
  );

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
export const background = z
  .string()
  .transform((text, ctx): Rgba => {
    if (text === 'transparent') return [0, 0, 0, 0];
    if (!HEX_COLOUR.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'expected #rgb, #rrggbb, #rrggbbaa or transparent' });
      return z.NEVER;
    }
    const hex = text.length === 4 ? [...text.slice(1)].map((digit) => digit + digit).join('') : text.slice(1);
    const [r, g, b, a = 255] = (hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16));
    return [r!, g!, b!, a];
  })
  .describe(
    "The colour of pad's margins, and what transparency is flattened onto for JPEG: `#rgb`, `#rrggbb`, `#rrggbbaa` or `transparent` (default white). A transparent or translucent background keeps its alpha in PNG, WebP and AVIF, and is flattened onto white for JPEG.",
  );

/** Order and repeats do not matter: the names come out once each, in METADATA_CLASSES' order. */
export const preserve = z
  .array(z.enum(METADATA_CLASSES))
  .max(METADATA_CLASSES.length * 4, 'too many names')
  .transform((names) => METADATA_CLASSES.filter((name) => names.includes(name)))
  .describe(
    'Metadata to keep besides orientation and colour: `copyright` (EXIF Copyright and Artist, IPTC by-line, credit and copyright notice, XMP rights, creators and licences), `creation` (the date taken: EXIF DateTimeOriginal and DateTimeDigitized with their offsets and fractions, XMP and IPTC creation dates), `location` (the EXIF GPS directory, XMP GPS, IPTC and XMP place names; never kept unless asked). Rebuilt into every output format\'s own place; at most 64 KiB. Default: none.',
  );

/** A multipart text part holding a comma-separated list of names, checked by the same rule as its JSON array. */
export function listText<S extends z.ZodType<unknown, string[]>>(rule: S, names: readonly string[]) {
  return z
    .string()
    .transform((text) => (text.trim() === '' ? [] : text.split(',').map((name) => name.trim())))
    .pipe(rule)
    .describe(`Comma-separated, of ${names.join(', ')}. ${rule.description ?? ''}`.trim());
}

export const anim = z
  .boolean()
  .describe(
    'false: the first frame of an animated input (GIF), whatever the format, with `X-Compression-Notes: first-frame`. Default true: every frame where the output keeps them, as an animated WebP (`format=webp`, or `auto` when Accept lists image/webp and it is smaller than the GIF), frame timings and loop count kept, the geometry applied to every frame, at most 50 MP of frames in all (413 past it); the first frame in other formats; with `auto` and WebP not accepted, an animated GIF comes back with its pixels untouched (`original-returned`).',
  );

/** A multipart text part holding `true` or `false`, checked by the same rule as its JSON form. */
export function booleanText(rule: z.ZodBoolean) {
  return z
    .enum(['true', 'false'], { error: 'expected true or false' })
    .transform((text) => text === 'true')
    .pipe(rule)
    .describe(`\`true\` or \`false\`. ${rule.description ?? ''}`.trim());
}

/** A multipart text part holding an integer, checked by the same rule as its JSON form. */
export function integerText(rule: z.ZodNumber) {
  return z
    .string()
    .trim()
    .regex(/^[+-]?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(rule);
}

/**
 * The image fields, as the body parsers hand them over: their bytes, read (and for JSON base64-decoded)
 * as they arrived (src/input/read-fields.ts). The API reference describes what a client sends instead
 * (src/docs/json-schema.ts).
 */
export const imageFile = z.instanceof(Uint8Array, { error: 'expected a file upload' });
export const base64Image = z
  .instanceof(Uint8Array, { error: 'expected base64 image data' })
  .refine((bytes) => bytes.length > 0, 'expected base64 image data')
  .describe('Base64-encoded image, with or without a data URI prefix');
