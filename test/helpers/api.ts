import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { expect } from 'vitest';
import { env, exports } from 'cloudflare:workers';
import worker from '../../src/index';
import { wasmEngine } from '../../src/image/wasm';
import { ENGINE_BUDGET_BYTES } from '../../src/limits/memory';
import type { AccountGate } from '../../src/durable/account-gate';
import type { Bindings } from '../../src/env';
import { hashKey } from '../../src/keys/hash-key';
import { keyDisplayPrefix, mintKey } from '../../src/keys/key-format';
import type { PlanName } from '../../src/store/keys';
import { insertKeyStatement } from '../../src/store/keys';

export { fixture } from './fixtures';

const BASE = 'http://api.test';

/**
 * Calls the Worker through its fetch handler, with real D1 and Durable Objects behind it. Local workerd
 * does not enforce the isolate's 128 MB, so every call checks it: the engine's memory and the JS
 * buffers it counted since the last call (the request's jobs, outputs and copies) stayed within the
 * engine budget.
 */
export async function call(path: string, init?: RequestInit): Promise<Response> {
  const response = await exports.default.fetch(new Request(BASE + path, init));
  expectWithinEngineBudget(path);
  return response;
}

/** Calls the Worker's fetch handler with some bindings swapped (a failing or watched D1, a limiter that is down). */
export async function callWith(bindings: Partial<Bindings>, path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(BASE + path, init), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  expectWithinEngineBudget(path);
  return response;
}

function expectWithinEngineBudget(path: string): void {
  expect(wasmEngine.takePeak(), `${path}: the engine's peak (WASM memory and JS buffers)`).toBeLessThanOrEqual(ENGINE_BUDGET_BYTES);
}

/**
 * What the operator commands do after they change an account in D1 (scripts/d1.mjs): tell the
 * account's object to read it again (src/routes/operator.ts), so the change applies at once.
 */
export async function operatorReload(accountId: string): Promise<void> {
  const response = await call(`/operator/accounts/${encodeURIComponent(accountId)}/reload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.OPERATOR_TOKEN}` },
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

/** The account's Durable Object (src/durable/account-gate.ts): its slots and its month. */
export function accountGate(accountId: string): DurableObjectStub<AccountGate> {
  return env.ACCOUNT_GATE.get(env.ACCOUNT_GATE.idFromName(accountId));
}

/** Has the account's object write what D1 has not got yet now, instead of a few seconds later. */
export async function flushUsage(accountId: string): Promise<void> {
  await accountGate(accountId).flush();
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

/**
 * POST /v1/compress: `body` is an image (sent as the multipart file part, with `fields`), a FormData, or
 * a JSON string. The key is a fresh business key unless `headers` names one (X-API-Key).
 */
export async function compress(body: Uint8Array | FormData | string, fields: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const key = headers['X-API-Key'] ?? (await createKey('business')).key;
  const json: Record<string, string> = typeof body === 'string' ? { 'Content-Type': 'application/json' } : {};
  const sent = body instanceof Uint8Array ? form('file', body, fields) : body;
  return call('/v1/compress', { method: 'POST', headers: { ...json, ...headers, 'X-API-Key': key }, body: sent });
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
