// One real `wrangler dev` (scripts/dev-server.mjs: free ports, a fresh local state) for every end-to-end
// test of the packages, after building and packing them as `npm start` does, so the tests run what the
// tarballs ship and the server serves them at /downloads/.
import type { TestProject } from 'vitest/node';
import { startWranglerDev } from '../../../scripts/dev-server.mjs';
import { packTools } from '../../../scripts/pack-tools.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    state: string;
  }
}

export default async function setup(project: TestProject) {
  packTools();
  const server = await startWranglerDev({ preferredPort: 8797 });
  project.provide('baseUrl', server.url);
  project.provide('state', server.state);
  return () => server.stop();
}
