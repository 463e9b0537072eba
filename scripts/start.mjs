import { recordNpmStart } from './npm-start-record.mjs';
import { applyMigrations, isLoopbackHost, listeningOrigin, localModeVars, LOCAL_STATE, startWrangler } from './wrangler.mjs';

/**
 * `npm start [-- --port N] [-- --ip ADDRESS]`: pending migrations applied to the local D1, then the Worker
 * on 127.0.0.1:8787 in local mode: sign-in links point at the origin it listens on (PUBLIC_ORIGIN) and are
 * printed here instead of mailed. /dev/outbox lists them too, but only while it listens on loopback alone:
 * with --ip 0.0.0.0 anyone on the network could claim to be local, since wrangler dev keeps a client-sent
 * CF-Connecting-IP. `--var PUBLIC_ORIGIN:URL` names another origin (a name the network knows this machine by).
 * Where it listens is recorded in the state, so that `npm run key` and `npm run account` tell this server
 * about their changes whatever its port.
 */
const args = process.argv.slice(2);
const option = (flag) => {
  const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(flag.length + 1) : args[i + 1];
};
const ip = option('--ip') ?? '127.0.0.1';
const port = option('--port') ?? '8787';
const givenOrigin = args.find((a, i) => args[i - 1] === '--var' && a.startsWith('PUBLIC_ORIGIN:'))?.slice('PUBLIC_ORIGIN:'.length);
if (!isLoopbackHost(ip) && givenOrigin && URL.canParse(givenOrigin) && isLoopbackHost(new URL(givenOrigin).hostname)) {
  console.error(`npm start: --ip ${ip} listens beyond this machine, so PUBLIC_ORIGIN cannot be a loopback address (${givenOrigin}):`);
  console.error('that would serve the outbox, and every sign-in link, to anyone on the network who says they are local.');
  process.exit(2);
}

applyMigrations();
// Reached from this machine: a server on every interface answers on loopback too.
recordNpmStart(listeningOrigin(['0.0.0.0', '::', '*'].includes(ip) ? '127.0.0.1' : ip, port));
startWrangler([
  'dev',
  '--persist-to',
  LOCAL_STATE,
  '--ip',
  ip,
  '--port',
  port,
  ...localModeVars(listeningOrigin(ip, port)),
  // Last, so that a --var given here wins over the ones above.
  ...args.filter((a, i) => !['--ip', '--port'].includes(a) && !['--ip', '--port'].includes(args[i - 1] ?? '') && !/^--(ip|port)=/.test(a)),
]);
