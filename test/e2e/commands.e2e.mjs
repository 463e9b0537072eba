// npm run test:commands: the operator commands and the migrations against a real local D1, as `npm start`
// uses it. It starts from a state made before migrations existed (the old schema.sql and a key written
// as the key command wrote it, with usage), then runs `npm run key` and `npm run account`, then serves
// that state with `wrangler dev` and uses the keys. Runs on loopback only, on a state of its own.
import { createHash, randomBytes } from 'node:crypto';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, startWranglerDev, stopAllWranglerDev } from '../../scripts/dev-server.mjs';
import { runWrangler } from '../../scripts/wrangler.mjs';
import { afterAll } from 'vitest';
import { assert, test } from './harness.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'squeeze-commands-'));
/**
 * The legacy key's usage is written for this month and the next: the file runs for minutes, and the clock
 * of the commands and of wrangler dev cannot be held still from here, so it may cross 00:00 UTC on the 1st.
 */
const now = new Date();
const months = [now, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))].map((d) => d.toISOString().slice(0, 7));

/**
 * Runs `npm run <script> -- args` as an operator would, against this test's state. Asynchronously: a
 * blocked event loop would miss the dev server closing an idle keep-alive connection, and the next
 * fetch would fail on it.
 */
async function command(script, ...args) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, `scripts/${script}.mjs`), ...args], {
    cwd: root,
    // The Worker the commands tell about a change: this test's, once it runs (before, a port nothing listens on).
    env: { ...process.env, SQUEEZE_STATE: state, SQUEEZE_URL: dev?.url ?? 'http://127.0.0.1:9' },
  });
  return stdout;
}

function sql(text) {
  const output = runWrangler(['d1', 'execute', 'DB', '--local', '--persist-to', state, '--json', '--command', text]);
  return JSON.parse(output.slice(output.indexOf('['))).flatMap((r) => r.results ?? []);
}

const proQuota = () => sql("SELECT monthly_quota FROM plans WHERE name = 'pro'")[0].monthly_quota;

// What the key command wrote before accounts: a key with its plan on it.
const legacyKey = `sqz_${randomBytes(24).toString('base64url')}`;
let newKey;
let newAccount;
let dev;

test('a state made before migrations: the old schema.sql, a key as the old key command wrote it, usage', () => {
  runWrangler(['d1', 'execute', 'DB', '--local', '--persist-to', state, '--file', join(root, 'test/fixtures/legacy/schema.sql')]);
  const hash = createHash('sha256').update(legacyKey).digest('hex');
  sql(
    `INSERT INTO api_keys (id, key_hash, prefix, plan, name, created_at) VALUES ('legacy-key', '${hash}', '${legacyKey.slice(0, 12)}', 'pro', 'old laptop', '2026-10-01T00:00:00.000Z');
     ${months.map((month) => `INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) VALUES ('legacy-key', '${month}', 3, 3000, 1000);`).join('\n')}`,
  );
  // An operator tuned a plan in D1 by hand.
  sql("UPDATE plans SET monthly_quota = 7 WHERE name = 'pro'");
  assert(proQuota() === 7, 'setup');
});

test('npm run key -- list migrates the state, lists the old key, and leaves the edited plan alone', async () => {
  const list = await command('key', 'list');
  assert(list.includes(`${legacyKey.slice(0, 12)}…\tpro\told laptop`), list);
  // Before migrations, every run of the key command applied schema.sql again, re-seeding the plans.
  assert(proQuota() === 7, `plans re-seeded: pro quota ${proQuota()}`);
  const applied = sql('SELECT name FROM d1_migrations ORDER BY id').map((r) => r.name);
  assert(applied[0]?.startsWith('0001_') && applied.length >= 2, JSON.stringify(applied));
});

test('npm run key -- create makes a key in an account of its own, audited; its last line is the key', async () => {
  const out = await command('key', 'create', '--plan', 'free', '--name', 'e2e');
  newKey = out.trim().split('\n').at(-1);
  assert(/^sqz_[A-Za-z0-9_-]{32}$/.test(newKey), out);
  newAccount = out.match(/in account ([0-9a-f-]{36})/)?.[1];
  assert(newAccount, out);
  const events = sql(`SELECT actor, event FROM audit_events WHERE account_id = '${newAccount}' ORDER BY id`);
  assert(JSON.stringify(events) === JSON.stringify([{ actor: 'operator', event: 'account_created' }, { actor: 'operator', event: 'key_created' }]), JSON.stringify(events));
});

test('npm run account -- list and show', async () => {
  const list = await command('account', 'list');
  assert(list.includes('legacy-key\t-\t-\tpro\tlive keys: 1\tthis month: 3'), list);
  assert(list.includes(`${newAccount}\t-\t-\tfree\tlive keys: 1\tthis month: 0`), list);
  const show = await command('account', 'show', 'legacy-key');
  assert(show.includes('plan      pro: 60 a minute, 7 a month') && show.includes('3 of 7 compressions'), show);
});

test('npm run account -- plan changes the plan and records it; the same plan again records nothing', async () => {
  assert((await command('account', 'plan', newAccount, 'business')).includes('free → business'));
  assert((await command('account', 'plan', newAccount, 'business')).includes('already on business'));
  const changes = sql(`SELECT detail FROM audit_events WHERE account_id = '${newAccount}' AND event = 'plan_changed'`);
  assert(changes.length === 1 && changes[0].detail === 'free → business', JSON.stringify(changes));
  const refused = await command('account', 'plan', newAccount, 'platinum').then(() => false, (err) => err.code === 2);
  assert(refused, 'an unknown plan was accepted');
});

test('served by wrangler dev: the old key works with its usage kept and the edited plan; the new key on business', async () => {
  dev = await startWranglerDev({ state });
  const usage = await fetch(`${dev.url}/v1/usage`, { headers: { 'X-API-Key': legacyKey } });
  const body = await usage.json();
  assert(usage.status === 200, JSON.stringify(body));
  assert(body.plan === 'pro' && body.usage.current === 3 && body.usage.limit === 7 && body.totals.bytesIn === 3000, JSON.stringify(body));
  const form = new FormData();
  form.append('file', new Blob([readFileSync(join(root, 'test/fixtures/api/chelsea.png'))]), 'chelsea.png');
  const compressed = await fetch(`${dev.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': legacyKey }, body: form });
  await compressed.arrayBuffer();
  assert(compressed.status === 200, `compress ${compressed.status}`);
  // Read back at once: only a compression and this read falling either side of 00:00 UTC on the 1st would differ.
  const after = await (await fetch(`${dev.url}/v1/usage`, { headers: { 'X-API-Key': legacyKey } })).json();
  assert(after.usage.current === 4, JSON.stringify(after));
  const fresh = await (await fetch(`${dev.url}/v1/usage`, { headers: { 'X-API-Key': newKey } })).json();
  assert(fresh.plan === 'business' && fresh.usage.limit === 100000, JSON.stringify(fresh));
});

test('npm run account -- disable: the account\'s keys are 401 at once; enable brings them back', async () => {
  await command('account', 'disable', newAccount);
  const refused = await fetch(`${dev.url}/v1/usage`, { headers: { 'X-API-Key': newKey } });
  assert(refused.status === 401 && (await refused.json()).message.includes('disabled'), `status ${refused.status}`);
  await command('account', 'enable', newAccount);
  assert((await fetch(`${dev.url}/v1/usage`, { headers: { 'X-API-Key': newKey } })).status === 200, 'not enabled again');
  const events = sql(`SELECT event FROM audit_events WHERE account_id = '${newAccount}' ORDER BY id`).map((e) => e.event);
  assert(events.includes('account_disabled') && events.at(-1) === 'account_enabled', JSON.stringify(events));
});

test('an operator command waits while another process writes to the local D1 (npm start does), then makes its change', async () => {
  // A write lock held on the D1 file, as the dev server's Worker holds it for a moment while it writes.
  const dir = join(state, 'v3/d1/miniflare-D1DatabaseObject');
  const writer = new DatabaseSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')));
  writer.exec('BEGIN IMMEDIATE');
  const child = spawn(process.execPath, [join(root, 'scripts/account.mjs'), 'plan', newAccount, 'pro'], { cwd: root, env: { ...process.env, SQUEEZE_STATE: state, SQUEEZE_URL: dev.url } });
  const output = [];
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => output.push(String(d)));
  let code;
  const exited = new Promise((resolve) => child.once('exit', (c) => resolve((code = c))));
  // The lock is let go once the command says it waits for it (or has ended without waiting).
  while (!output.join('').includes('The local D1 is busy') && code === undefined) await new Promise((r) => setTimeout(r, 100));
  writer.exec('COMMIT');
  writer.close();
  assert((await exited) === 0, output.join(''));
  assert(output.join('').includes('business → pro'), output.join(''));
  assert(sql(`SELECT plan FROM accounts WHERE id = '${newAccount}'`)[0].plan === 'pro', 'plan not changed');
});

test("npm run account -- disable ends the account's dashboard sessions", async () => {
  // Sign up through the dev server as a browser on the site would: the form, the link from the outbox, the confirm page.
  const email = `disable-${randomBytes(4).toString('hex')}@example.com`;
  const form = (fields) => ({ method: 'POST', redirect: 'manual', headers: { 'Sec-Fetch-Site': 'same-origin' }, body: new URLSearchParams(fields) });
  const signup = await fetch(`${dev.url}/signup`, form({ name: 'Ada', email }));
  assert(signup.status === 303, `signup ${signup.status}`);
  const mail = await (await fetch(`${dev.url}/dev/outbox/latest?to=${encodeURIComponent(email)}`)).json();
  const confirmed = await fetch(`${dev.url}/auth/confirm`, form({ token: new URL(mail.link).searchParams.get('token'), name: 'Ada' }));
  const cookie = confirmed.headers.getSetCookie().find((c) => c.startsWith('__Host-session='))?.split(';')[0];
  assert(confirmed.status === 303 && cookie, `confirm ${confirmed.status}`);
  const dashboard = () => fetch(`${dev.url}/dashboard`, { redirect: 'manual', headers: { Cookie: cookie } });
  assert((await dashboard()).status === 200, 'not signed in');

  await command('account', 'disable', email);
  const after = await dashboard();
  assert(after.status === 303 && after.headers.get('Location') === '/signin', `dashboard after disable: ${after.status}`);
  const live = sql(`SELECT count(*) AS n FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE a.email = '${email}' AND s.ended_ms IS NULL`);
  assert(live[0].n === 0, JSON.stringify(live));
});

test('npm run key -- revoke by prefix: 401 at once, audited', async () => {
  await command('key', 'revoke', newKey.slice(0, 12));
  assert((await fetch(`${dev.url}/v1/usage`, { headers: { 'X-API-Key': newKey } })).status === 401, 'still works');
  const events = sql(`SELECT event FROM audit_events WHERE account_id = '${newAccount}' AND event = 'key_revoked'`);
  assert(events.length === 1, JSON.stringify(events));
});

/** `npm run build` with these arguments: what it printed, warnings included. */
async function build(...args) {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, 'scripts/deploy.mjs'), '--dry-run', ...args], { cwd: root, maxBuffer: 1 << 24 });
  return stdout + stderr;
}

test('npm run build warns about each setting a deployment lacks, naming it, and still bundles', async () => {
  const output = await build();
  for (const needle of ['database_id of DB is the placeholder', 'MAIL_TRANSPORT is not set', 'PUBLIC_ORIGIN is not set', 'SUPPORT_EMAIL is not set']) {
    assert(output.includes(needle), `no "${needle}" in:\n${output}`);
  }
  assert(output.includes('--dry-run: exiting now'), output);
});

test("npm run build is quiet about a complete deployment: wrangler.toml's commented block filled in, staging included", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-deploy-'));
  try {
    const config = join(dir, 'wrangler.toml');
    const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
      .replace(/^# (?=\[|[A-Za-z_]+ = ["[{\d])/gm, '')
      .replaceAll('00000000-0000-0000-0000-000000000000', '6f1a3c52-0d8e-4b7a-9c11-2e5d7f0a9b43')
      .replace('<the id wrangler d1 create printed>', '0b7e2d91-5c44-4f3a-8e6d-1a9c3b5f7e20')
      .replace('"src/index.ts"', JSON.stringify(join(root, 'src/index.ts')))
      .replace('"./public"', JSON.stringify(join(root, 'public')))
      .replaceAll('"migrations"', JSON.stringify(join(root, 'migrations')));
    writeFileSync(config, toml);
    for (const env of [[], ['--env', 'staging']]) {
      const output = await build('--config', config, ...env);
      assert(!output.includes('Warning'), output);
      assert(output.includes('--dry-run: exiting now'), output);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * `npm start` with these arguments, on a state and in a process group of its own; resolves once it is
 * ready, with what it printed so far (and later), its state and a stop().
 */
async function npmStart(...args) {
  const own = mkdtempSync(join(tmpdir(), 'squeeze-start-'));
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), ...args], { cwd: root, env: { ...process.env, SQUEEZE_STATE: own }, detached: true });
  const output = [];
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  const stop = async () => {
    starts.delete(stop);
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(own, { recursive: true, force: true });
  };
  starts.add(stop);
  const deadline = Date.now() + 90_000;
  while (!/Ready on/.test(output.join(''))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start ${args.join(' ')} did not get ready:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { output, stop, state: own };
}
const starts = new Set();

/** A sign-in request as a script sends one, and the link npm start then printed for it. */
async function printedLink(origin, output, email) {
  const response = await fetch(`${origin}/signin`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ email }) });
  assert(response.status === 303, `sign-in request: ${response.status}`);
  // Printed as the mail leaves: wait for it (the test's timeout bounds the wait).
  for (;;) {
    const line = output.join('').split('\n').find((l) => l.includes(`[outbox]`) && l.includes(email));
    if (line) return line.slice(line.indexOf('http'));
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('npm start, offline: no ENOTFOUND stack trace, no telemetry notice; links to its own origin, the outbox on loopback', async () => {
  const port = await freePort();
  const started = await npmStart('--port', String(port));
  try {
    const origin = `http://127.0.0.1:${port}`;
    const link = await printedLink(origin, started.output, 'start@example.com');
    assert(link.startsWith(`${origin}/auth/confirm?token=`), link);
    assert((await fetch(`${origin}/dev/outbox`)).status === 200, 'no outbox on loopback');
    const printed = started.output.join('');
    for (const noise of ['ENOTFOUND', 'Unable to fetch the `Request.cf`', 'telemetry']) assert(!printed.includes(noise), `npm start printed ${noise}:\n${printed}`);
  } finally {
    await started.stop();
  }
});

test('npm start -- --ip 0.0.0.0: links name the network address, and the outbox is a 404 whatever CF-Connecting-IP says', async () => {
  const port = await freePort();
  const started = await npmStart('--ip', '0.0.0.0', '--port', String(port));
  try {
    const link = await printedLink(`http://127.0.0.1:${port}`, started.output, 'lan@example.com');
    const origin = new URL(link).origin;
    assert(!/^http:\/\/(127\.|localhost|\[::1\])/.test(origin), `a loopback link from a server on the network: ${link}`);
    for (const base of [origin, `http://127.0.0.1:${port}`]) {
      for (const path of ['/dev/outbox', '/dev/outbox/latest?to=lan@example.com']) {
        const response = await fetch(base + path, { headers: { 'CF-Connecting-IP': '127.0.0.1' } });
        assert(response.status === 404, `${base}${path}: ${response.status}`);
      }
    }
  } finally {
    await started.stop();
  }
  const refused = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--ip', '0.0.0.0', '--var', 'PUBLIC_ORIGIN:http://127.0.0.1:8787'], { cwd: root, encoding: 'utf8' });
  assert(refused.status === 2 && refused.stderr.includes('cannot be a loopback address'), `${refused.status} ${refused.stderr}`);
});

/** `npm run key -- args` on `state` as an operator runs it in another terminal: no SQUEEZE_URL. Its exit code and output. */
async function keyOn(state, ...args) {
  const env = { ...process.env, SQUEEZE_STATE: state };
  delete env.SQUEEZE_URL;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, 'scripts/key.mjs'), ...args], { cwd: root, env });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    return { code: err.code, output: `${err.stdout}${err.stderr}` };
  }
}

test('npm run key -- revoke finds npm start on another port without SQUEEZE_URL: 401 at once', async () => {
  const port = await freePort();
  const started = await npmStart('--port', String(port));
  try {
    const usage = async (key) => (await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { 'X-API-Key': key } })).status;
    const created = await keyOn(started.state, 'create', '--plan', 'free');
    const key = created.output.trim().split('\n').at(-1);
    // The account's object now holds the key as working.
    assert((await usage(key)) === 200, created.output);
    const revoked = await keyOn(started.state, 'revoke', key.slice(0, 12));
    assert(revoked.code === 0, revoked.output);
    assert((await usage(key)) === 401, `the key still works after the revoke, which said:\n${revoked.output}`);
  } finally {
    await started.stop();
  }
});

test('npm run key -- revoke that cannot reach the recorded npm start says so and exits non-zero', async () => {
  const own = mkdtempSync(join(tmpdir(), 'squeeze-unreached-'));
  try {
    const key = (await keyOn(own, 'create', '--plan', 'free')).output.trim().split('\n').at(-1);
    // npm start of this state is recorded as running (this process stands in for it) on a port nothing answers.
    writeFileSync(join(own, 'npm-start.json'), JSON.stringify({ url: 'http://127.0.0.1:9', pid: process.pid }));
    const revoked = await keyOn(own, 'revoke', key.slice(0, 12));
    assert(revoked.code !== 0, revoked.output);
    assert(revoked.output.includes('http://127.0.0.1:9') && revoked.output.includes('run the command again'), revoked.output);
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
});

/** PATH without node_modules/.bin: the machine's own Node and npm, as a newcomer runs them. */
const machinePath = process.env.PATH.split(':').filter((dir) => !dir.includes('node_modules')).join(':');

test('npm install on the machine\'s own Node prints no EBADENGINE warning (what needs Node 22 runs on the devDependency\'s)', () => {
  const install = spawnSync('npm', ['install', '--dry-run', '--offline'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: machinePath } });
  assert(install.status === 0, install.stdout + install.stderr);
  assert(!(install.stdout + install.stderr).includes('EBADENGINE'), install.stderr);
});

test('npm run build on a machine wrangler never ran on: no telemetry notice', () => {
  const home = mkdtempSync(join(tmpdir(), 'squeeze-home-'));
  try {
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    delete env.WRANGLER_SEND_METRICS;
    const run = spawnSync(process.execPath, [join(root, 'scripts/deploy.mjs'), '--dry-run'], { cwd: root, encoding: 'utf8', env });
    assert(run.status === 0, run.stdout + run.stderr);
    assert(!/telemetry/i.test(run.stdout + run.stderr), run.stdout + run.stderr);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

const stopEverything = () => Promise.all([stopAllWranglerDev(), ...[...starts].map((stop) => stop())]);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => stopEverything().finally(() => process.exit(130)));
}
afterAll(async () => {
  await stopEverything();
  rmSync(state, { recursive: true, force: true });
});
