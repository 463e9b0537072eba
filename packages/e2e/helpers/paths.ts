import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The CLI as installed by `npm ci`: bin/squeeze.js over the built dist/. */
export const squeezeBin = `${root}packages/cli/bin/squeeze.js`;
