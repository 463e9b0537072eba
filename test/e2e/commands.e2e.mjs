// npm run test:commands: the operator commands and the migrations against a real local D1, as `npm start`
// uses it. It starts from a state made before migrations existed (the old schema.sql and a key written
// as the key command wrote it, with usage), then runs `npm run key` and `npm run account`, then serves
// that state with `wrangler dev` and uses the keys. Runs on loopback only, on a state of its own.
import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startWranglerDev, stopAllWranglerDev } from '../../scripts/dev-server.mjs';
import { runWrangler } from '../../scripts/wrangler.mjs';
import { afterAll } from 'vitest';
import { assert, test } from './harness.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'squeeze-commands-'));
const month = new Date().toISOString().slice(0, 7);

/**
 * Runs `npm run <script> -- args` as an operator would, against this test's state. Asynchronously: a
 * blocked event loop would miss the dev server closing an idle keep-alive connection, and the next
 * fetch would fail on it.
 */
async function command(script, ...args) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, `scripts/${script}.mjs`), ...args], {
    cwd: root,
    env: { ...process.env, SQUEEZE_STATE: state },
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

test('a state made before migrations: the old schema.sql, a key as the old key command wrote it, usage', () => {
  runWrangler(['d1', 'execute', 'DB', '--local', '--persist-to', state, '--file', join(root, 'test/fixtures/legacy/schema.sql')]);
  const hash = createHash('sha256').update(legacyKey).digest('hex');
  sql(
    `INSERT INTO api_keys (id, key_hash, prefix, plan, name, created_at) VALUES ('legacy-key', '${hash}', '${legacyKey.slice(0, 12)}', 'pro', 'old laptop', '2026-10-01T00:00:00.000Z');
     INSERT INTO monthly_usage (key_id, month, requests, bytes_in, bytes_out) VALUES ('legacy-key', '${month}', 3, 3000, 1000);`,
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

let dev;
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

test("npm run account -- disable ends the account's dashboard sessions", async () => {
  // Sign up through the dev server as a browser on the site would: the form, the link from the outbox, the confirm page.
  const email = `disable-${randomBytes(4).toString('hex')}@example.com`;
  const form = (fields) => ({ method: 'POST', redirect: 'manual', headers: { 'Sec-Fetch-Site': 'same-origin' }, body: new URLSearchParams(fields) });
  const signup = await fetch(`${dev.url}/signup`, form({ name: 'Ada', email }));
  assert(signup.status === 303, `signup ${signup.status}`);
  const mail = await (await fetch(`${dev.url}/dev/outbox/latest?to=${encodeURIComponent(email)}`)).json();
  const confirmed = await fetch(`${dev.url}/auth/confirm`, form({ token: new URL(mail.link).searchParams.get('token') }));
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

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => stopAllWranglerDev().finally(() => process.exit(130)));
}
afterAll(async () => {
  await stopAllWranglerDev();
  rmSync(state, { recursive: true, force: true });
});
