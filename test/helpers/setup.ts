import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll } from 'vitest';
import { installTestClock } from './clock';

/** Each test file gets fresh storage; give it the real schema, migrations/ applied in order. */
beforeAll(() => applyD1Migrations(env.DB, env.TEST_MIGRATIONS));

installTestClock();
