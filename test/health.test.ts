import { describe, expect, it } from 'vitest';
import { call, errorBody } from './helpers/api';

describe('GET /health', () => {
  it('answers ok with an ISO timestamp, without a key', async () => {
    const response = await call('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { status: string; timestamp: string };
    expect(body.status).toBe('ok');
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await call('/nope');
    expect(response.status).toBe(404);
    expect((await errorBody(response)).error).toBe('not_found');
  });
});
