import type { z } from 'zod';
import { ApiError } from '../errors/api-error';

/** Validates at the edge of the system; the first problem becomes a 400 naming the field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new ApiError('bad_request', field ? `${field}: ${issue.message}` : issue.message);
}
