import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import('../src/index');
    }
    interface Env extends Bindings {
      /** schema.sql, read by vitest.config.ts. */
      TEST_SCHEMA: string;
      /** Serves test/fixtures/<name> from disk. */
      FIXTURES: Fetcher;
      /** The static site (wrangler.toml [assets]), with public/_headers applied. */
      ASSETS: Fetcher;
    }
  }
}
