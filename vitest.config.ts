import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;
/** SUITE=soak or SUITE=fuzz runs test/<suite>/*.<suite>.ts instead of the fast suite of `npm test`. */
const suite = process.env.SUITE;

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        // The migrations, applied by test/helpers/setup.ts; tests run in local mode (mail to the outbox) as
        // `npm start` does, with links to its loopback origin, not to the URL the tests call (api.test), and
        // with an operator token for /operator/* (test/helpers/api.ts operatorReload).
        // TEST_CLOCK_START: see test/helpers/clock.ts. FUZZ_FIRST_CASE: see test/fuzz/model.fuzz.ts.
        // FUZZ_DEFLATE_CASES: see test/fuzz/deflate.fuzz.ts. SOAK_REQUESTS, SOAK_LANES: see test/soak/mixed-paths.soak.ts.
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(resolve(root, 'migrations')),
          MAIL_TRANSPORT: 'outbox',
          PUBLIC_ORIGIN: 'http://127.0.0.1:8787',
          OPERATOR_TOKEN: 'test-operator-token',
          TEST_CLOCK_START: process.env.TEST_CLOCK_START ?? '',
          FUZZ_FIRST_CASE: process.env.FUZZ_FIRST_CASE ?? '',
          FUZZ_DEFLATE_CASES: process.env.FUZZ_DEFLATE_CASES ?? '',
          SOAK_REQUESTS: process.env.SOAK_REQUESTS ?? '',
          SOAK_LANES: process.env.SOAK_LANES ?? '',
        },
        // Cloudflare's send_email binding as wrangler simulates it, for the test of MAIL_TRANSPORT=cloudflare.
        email: { send_email: [{ name: 'EMAIL', allowed_sender_addresses: ['login@squeeze.test'], allowed_destination_addresses: ['allowed@example.com'] }] },
        // Test fixtures are served from disk by a Node-side binding: workerd has no file system.
        serviceBindings: {
          FIXTURES: async (request: Request) => {
            const name = decodeURIComponent(new URL(request.url).pathname.slice(1));
            if (name.includes('..')) return new Response('bad fixture name', { status: 400 });
            try {
              return new Response(await readFile(resolve(root, 'test/fixtures', name)));
            } catch {
              return new Response(`no fixture ${name}`, { status: 404 });
            }
          },
        },
      },
    }),
  ],
  test: {
    include: suite ? [`test/${suite}/**/*.${suite}.ts`] : ['test/**/*.test.ts'],
    setupFiles: ['./test/helpers/setup.ts'],
    testTimeout: suite ? 900_000 : 30_000,
  },
});
