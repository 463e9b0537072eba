// One real `wrangler dev` (scripts/dev-server.mjs: free ports, a fresh local state) for every end-to-end
// test of the packages, after building them, so the tests run what `npm pack` ships.
import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startWranglerDev } from '../../../scripts/dev-server.mjs';
import { root } from './paths';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    state: string;
  }
}

export default async function setup(project: TestProject) {
  execFileSync(process.execPath, [`${root}/node_modules/typescript/bin/tsc`, '-b', 'packages/client', 'packages/cli'], { cwd: root, stdio: 'inherit' });
  const server = await startWranglerDev({ preferredPort: 8797 });
  project.provide('baseUrl', server.url);
  project.provide('state', server.state);
  return () => server.stop();
}
