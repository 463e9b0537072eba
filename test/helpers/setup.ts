import { env } from 'cloudflare:workers';
import { beforeAll } from 'vitest';

/** Each test file gets fresh storage; give it the real schema, exactly as schema.sql has it. */
beforeAll(async () => {
  const statements = env.TEST_SCHEMA.split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
});
