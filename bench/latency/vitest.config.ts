import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

/**
 * The Worker of the checkout LATENCY_ROOT (this one, or the baseline that bench/latency.mjs extracted),
 * run by bench/latency/measure.latency.ts in workerd with its own wrangler.toml and migrations.
 */
const root = resolve(process.env.LATENCY_ROOT ?? resolve(import.meta.dirname, '../..'));
const here = import.meta.dirname;

export default defineConfig({
  root,
  plugins: [
    cloudflareTest({
      wrangler: { configPath: resolve(root, 'wrangler.toml') },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(resolve(root, 'migrations')),
          MAIL_TRANSPORT: 'outbox',
          LATENCY_DELAY_MS: Number(process.env.DELAY_MS ?? 150),
          LATENCY_ROUNDS: Number(process.env.ROUNDS ?? 15),
          LATENCY_IMAGE: (await readFile(resolve(here, '../../test/fixtures/engine/pngsuite/z00n2c08.png'))).toString('base64'),
        },
      },
    }),
  ],
  test: { include: ['bench/latency/*.latency.ts'], testTimeout: 600_000 },
});
