import type { D1Migration } from 'cloudflare:test';
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import('../src/index');
    }
    interface Env extends Bindings {
      /** migrations/, read by vitest.config.ts. */
      TEST_MIGRATIONS: D1Migration[];
      /** An instant every test starts at, or '' for the real clock (test/helpers/clock.ts). */
      TEST_CLOCK_START: string;
      /** The model fuzz's first case number, or '' for its default (test/fuzz/model.fuzz.ts). */
      FUZZ_FIRST_CASE: string;
      /** How many crafted deflate streams the deflate fuzz sends, or '' for its default (test/fuzz/deflate.fuzz.ts). */
      FUZZ_DEFLATE_CASES: string;
      /** The mixed soak's requests and cases at a time, or '' for its defaults (test/soak/mixed-paths.soak.ts). */
      SOAK_REQUESTS: string;
      SOAK_LANES: string;
      /** Serves test/fixtures/<name> from disk. */
      FIXTURES: Fetcher;
      /** The static site (wrangler.toml [assets]), with public/_headers applied. */
      ASSETS: Fetcher;
    }
  }
}
