import { Hono } from 'hono';
import type { AppEnv } from '../env';
import type { HealthResponse } from '../schemas/responses';

export const healthRoute = new Hono<AppEnv>().get('/health', (c) =>
  c.json<HealthResponse>({ status: 'ok', timestamp: new Date(c.get('nowMs')).toISOString() }),
);
