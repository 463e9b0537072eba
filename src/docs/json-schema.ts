import { z } from 'zod';
import { base64Image, imageFile } from '../schemas/fields';

export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as the JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) of what a client sends.
 * `io: 'input'` keeps defaulted fields optional. Two kinds of schema need help:
 * - the image fields hold the bytes the body parsers decoded: a file upload becomes a binary string, a
 *   base64 image the string a client sends;
 * - a multipart integer is text piped into the JSON rule (`integerText`); a client sends it as an
 *   integer form value, so it is described by that rule (type, minimum, maximum), not as a pattern.
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === imageFile) replace(jsonSchema, { type: 'string', format: 'binary', description: 'Image file (JPEG, PNG, WebP or AVIF)' });
      if (zodSchema === base64Image) replace(jsonSchema, { type: 'string', minLength: 1, description: base64Image.description });
      const rule = integerRule(zodSchema);
      if (rule) replace(jsonSchema, toJsonSchema(rule));
      const def = zodSchema._zod.def;
      // zod leaves out a default whose value is not of the pipe's input type (80 for a text field).
      if (def.type === 'default' && jsonSchema.default === undefined) jsonSchema.default = (def as z.core.$ZodDefaultDef).defaultValue;
      tidy(jsonSchema);
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The number rule at the end of a text-to-integer pipe, if `schema` is one. */
function integerRule(schema: z.core.$ZodType): z.ZodNumber | undefined {
  const def = schema._zod.def;
  if (def.type !== 'pipe') return undefined;
  const out = (def as z.core.$ZodPipeDef).out;
  return out instanceof z.ZodNumber ? out : undefined;
}

/** Drops what only restates the obvious: safe-integer bounds, and the regex behind format date-time. */
function tidy(json: JsonSchema): void {
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  if (json.format === 'date-time') delete json.pattern;
}

function replace(target: JsonSchema, value: JsonSchema): void {
  const keep = { default: target.default };
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, value, keep.default === undefined ? {} : keep);
}
