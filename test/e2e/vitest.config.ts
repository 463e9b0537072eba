// The end-to-end runs of the Worker (`npm run test:e2e`, `test:e2e:dashboard`, `test:restart`,
// `test:commands`, each naming its file): plain Node against real `wrangler dev` servers and Debian's
// Chromium, as the packages' end-to-end tests run (packages/e2e/vitest.config.ts). Not the root config:
// that one runs tests inside workerd through the Cloudflare plugin.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['**/*.e2e.mjs'],
    // A file starts its own dev server (and browser): minutes of work on a loaded 2-core machine.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // Child processes (wrangler dev, Chromium) are stopped by the file's own hooks and signal handlers.
    pool: 'forks',
    fileParallelism: false,
  },
});
