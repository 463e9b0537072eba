import { applySchema, LOCAL_STATE, startWrangler } from './wrangler.mjs';

/** `npm start [-- --port N]`: the schema applied to the local D1, then the Worker on 127.0.0.1:8787. */
const args = process.argv.slice(2);
const has = (flag) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
applySchema();
startWrangler([
  'dev',
  '--persist-to',
  LOCAL_STATE,
  ...(has('--ip') ? [] : ['--ip', '127.0.0.1']),
  ...(has('--port') ? [] : ['--port', '8787']),
  ...args,
]);
