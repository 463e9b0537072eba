import { expect } from 'vitest';
import { ApiError } from '../../src/errors/api-error';

/**
 * The ApiError that `run` throws or rejects with (a promise is awaited as it is). Anything else thrown is
 * thrown again, so the test shows it; succeeding fails the test.
 */
export async function apiErrorOf(run: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof run === 'function' ? run() : run);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError, but it succeeded');
}

/** The refusal of data that is not a supported, decodable still image: unsupported_image, with a message. */
export async function expectUnsupported(run: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  const error = await apiErrorOf(run);
  expect(error.code).toBe('unsupported_image');
  expect(error.message).not.toBe('');
  return error;
}
