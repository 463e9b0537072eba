import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { readBodyCapped } from '../input/read-body';

/** The dashboard's form fields: the only place their rules live. Messages are shown beside the field. */

export const KEY_NAME_MAX = 50;
export const PERSON_NAME_MAX = 100;
export const EMAIL_MAX = 254;

const email = z
  .string({ error: 'Enter your email address.' })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, 'That email address is too long.')
  .pipe(z.email({ error: 'Enter an email address like name@example.com.' }));

const personName = z.string({ error: 'Enter your name.' }).trim().min(1, 'Enter your name.').max(PERSON_NAME_MAX, `Use at most ${PERSON_NAME_MAX} characters.`);

export const signUpForm = z.object({ name: personName, email });

export const signInForm = z.object({ email });

export const confirmForm = z.object({ token: z.string().min(1).max(100) });

/** The confirm page's name field, there when the link creates the account. */
export const accountNameForm = z.object({ name: personName });

export const keyNameForm = z.object({
  name: z
    .string({ error: 'Give the key a name.' })
    .trim()
    .min(1, 'Give the key a name, such as the app or machine that will use it.')
    .max(KEY_NAME_MAX, `Use at most ${KEY_NAME_MAX} characters.`),
});

export const rollForm = z.object({ ends: z.enum(['now', '24h'], { error: 'Choose when the old key ends.' }) });

/** The dashboard's forms are a few short fields. */
const FORM_MAX_BYTES = 16 * 1024;

/** A form's fields from a urlencoded body (what the dashboard's forms send); anything else has none. */
export async function formFields(request: Request): Promise<Record<string, string>> {
  if (!(request.headers.get('Content-Type') ?? '').startsWith('application/x-www-form-urlencoded')) return {};
  const body = await readBodyCapped(request, FORM_MAX_BYTES, () => new ApiError('bad_request', 'The form is too large.'));
  return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(body)));
}

/** The form's values, or the first message for each field that is wrong. */
export function readForm<S extends z.ZodObject>(
  schema: S,
  fields: Record<string, string>,
): { ok: true; data: z.output<S> } | { ok: false; errors: Partial<Record<keyof z.output<S>, string>> } {
  const result = schema.safeParse(fields);
  if (result.success) return { ok: true, data: result.data };
  const errors: Partial<Record<keyof z.output<S>, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof z.output<S>;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
