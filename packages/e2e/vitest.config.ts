// The packages' end-to-end tests (`npm run test:packages:e2e`, run by .ci/run): plain Node, against one real
// `wrangler dev`. Not the root config: that one runs tests inside workerd through the Cloudflare plugin.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['**/*.e2e.ts'],
    globalSetup: ['./helpers/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One dev server, and the tmux and pack tests are heavy: one file at a time on a 2-core machine.
    fileParallelism: false,
  },
});
