import { ApiError } from '../errors/api-error';

/** A request body as plain fields: JSON members, or multipart parts (text or File). */
export type Fields = Record<string, unknown>;

export interface ParsedBody {
  form: 'json' | 'multipart';
  fields: Fields;
}

/**
 * Parses an already size-capped body by its Content-Type. Only JSON objects and multipart forms are
 * accepted; anything else is a clear 400 rather than a guess.
 */
export async function parseFields(contentType: string | undefined, body: Uint8Array): Promise<ParsedBody> {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) return { form: 'json', fields: parseJsonObject(body) };
  if (type === 'multipart/form-data') return { form: 'multipart', fields: await parseMultipart(contentType!, body) };
  throw new ApiError(
    'bad_request',
    `Unsupported Content-Type ${type ? `"${type}"` : '(none)'}: send multipart/form-data or application/json.`,
  );
}

function parseJsonObject(body: Uint8Array): Fields {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    throw new ApiError('bad_request', 'The body is not valid UTF-8 JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('bad_request', 'The JSON body must be an object.');
  }
  return value as Fields;
}

async function parseMultipart(contentType: string, body: Uint8Array): Promise<Fields> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw new ApiError('bad_request', 'The multipart/form-data body is malformed.');
  }
  const fields: Fields = {};
  for (const [name, value] of form.entries()) {
    if (name in fields) throw new ApiError('bad_request', `${name}: given more than once.`);
    fields[name] = value;
  }
  return fields;
}
