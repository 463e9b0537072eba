import { applyMigrations, LOCAL_MODE_VARS, LOCAL_STATE, startWrangler } from './wrangler.mjs';

/**
 * `npm start [-- --port N]`: pending migrations applied to the local D1, then the Worker on 127.0.0.1:8787
 * in local mode (sign-in links printed here and kept in /dev/outbox instead of mailed).
 */
const args = process.argv.slice(2);
const has = (flag) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
applyMigrations();
startWrangler([
  'dev',
  '--persist-to',
  LOCAL_STATE,
  ...LOCAL_MODE_VARS,
  ...(has('--ip') ? [] : ['--ip', '127.0.0.1']),
  ...(has('--port') ? [] : ['--port', '8787']),
  ...args,
]);
