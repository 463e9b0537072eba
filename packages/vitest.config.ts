// The packages' fast unit tests (part of `npm test`): plain Node, against small local fake servers. A config
// of its own, since the root one runs tests inside workerd through the Cloudflare plugin (and Vitest 5's
// inline projects would inherit it). The CLI's tests import the client's sources, not its build.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./client/src/${path}`, import.meta.url));

export default defineConfig({
  root: import.meta.dirname,
  resolve: {
    alias: [
      { find: /^@squeeze-edge\/client\/node$/, replacement: src('node.ts') },
      { find: /^@squeeze-edge\/client$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['client/test/**/*.test.ts', 'cli/test/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
