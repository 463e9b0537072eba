import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { expect } from 'vitest';
import { env, exports } from 'cloudflare:workers';
import worker from '../../src/index';
import type { Bindings } from '../../src/env';
import { hashKey } from '../../src/keys/hash-key';
import { keyDisplayPrefix, mintKey } from '../../src/keys/key-format';
import type { PlanName } from '../../src/store/keys';
import { insertKeyStatement } from '../../src/store/keys';

export { fixture } from './fixtures';

const BASE = 'http://api.test';

/** Calls the Worker through its fetch handler, with real D1 and Durable Objects behind it. */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(BASE + path, init));
}

/** Calls the Worker's fetch handler with some bindings swapped (a failing or watched D1, a limiter that is down). */
export async function callWith(bindings: Partial<Bindings>, path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(BASE + path, init), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

let keyCounter = 0;

/**
 * A fresh key of the real shape, stored as the key command stores it (hash only): in an account of its
 * own on `plan`, or added to `account` (whose plan then applies).
 */
export async function createKey(plan: PlanName = 'free', account?: string): Promise<{ key: string; id: string; accountId: string }> {
  const key = mintKey();
  const id = `test-${++keyCounter}-${crypto.randomUUID()}`;
  const accountId = account ?? `account-${id}`;
  const createdAt = new Date().toISOString();
  await env.DB.batch([
    ...(account ? [] : [env.DB.prepare('INSERT INTO accounts (id, plan, created_at) VALUES (?, ?, ?)').bind(accountId, plan, createdAt)]),
    insertKeyStatement(env.DB, { id, accountId, keyHash: await hashKey(key), prefix: keyDisplayPrefix(key), name: 'test', createdAt }),
  ]);
  return { key, id, accountId };
}

/** A multipart body with one file part and optional text fields. */
export function form(fileField: string, bytes: Uint8Array, fields: Record<string, string> = {}, filename = 'image'): FormData {
  const body = new FormData();
  body.append(fileField, new File([bytes], filename));
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function errorBody(response: Response): Promise<{ error: string; message: string; resetAt?: string }> {
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: string; message: string; resetAt?: string };
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  return body;
}
