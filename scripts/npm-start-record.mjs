// Where `npm start` of a state listens, for the operator commands run in another terminal: written in the
// state by scripts/start.mjs while it runs (its port may be any), read by d1.mjs workerTarget().
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_STATE } from './wrangler.mjs';

const file = (state) => join(state, 'npm-start.json');

/** Records this process as `npm start` of the state at `url`, until it exits. */
export function recordNpmStart(url, state = LOCAL_STATE) {
  writeFileSync(file(state), `${JSON.stringify({ url, pid: process.pid })}\n`);
  process.on('exit', () => rmSync(file(state), { force: true }));
}

/** The URL of the state's running `npm start`, or null when none is recorded or its process has gone (killed, leaving the file). */
export function recordedNpmStart(state = LOCAL_STATE) {
  let record;
  try {
    record = JSON.parse(readFileSync(file(state), 'utf8'));
  } catch {
    return null;
  }
  try {
    process.kill(record.pid, 0);
  } catch (err) {
    if (err.code === 'ESRCH') return null;
  }
  return record.url;
}
