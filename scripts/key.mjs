import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { auditSql, fail, literal, openD1, PLANS, reloadAccount, workerTarget } from './d1.mjs';

const USAGE = `Usage:
  npm run key -- create --plan free|pro|business [--name TEXT] [--remote]
  npm run key -- list [--remote]
  npm run key -- revoke <key id or key prefix> [--remote]

Works against the local D1 that \`npm start\` uses; --remote targets the deployed D1. Pending migrations are
applied first. A created key gets an account of its own (no email: it has no dashboard sign-in); accounts
are managed with \`npm run account\`. A revoke is also sent to the running Worker, so the key gets 401 at
once: locally the \`npm start\` of the state, on any port (SQUEEZE_URL names another); with --remote, set
SQUEEZE_URL and OPERATOR_TOKEN (the deployed Worker's secret).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { plan: { type: 'string' }, name: { type: 'string' }, remote: { type: 'boolean', default: false }, help: { type: 'boolean' } },
});
const [command, target] = positionals;

if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
if (!['create', 'list', 'revoke'].includes(command)) fail(USAGE);
if (command === 'create' && !PLANS.includes(values.plan)) fail(`--plan must be one of ${PLANS.join(', ')}.\n\n${USAGE}`);
if (command === 'revoke' && !target) fail(`revoke needs a key id or prefix.\n\n${USAGE}`);
const worker = command === 'revoke' ? workerTarget(values.remote) : null;
const db = openD1(values.remote);
const now = new Date().toISOString();

if (command === 'create') {
  // 192 random bits, base64url; the prefix makes a leaked key recognisable to secret scanners.
  const key = `sqz_${randomBytes(24).toString('base64url')}`;
  const id = randomUUID();
  const accountId = randomUUID();
  const prefix = key.slice(0, 12);
  db.execute(
    [
      `INSERT INTO accounts (id, plan, created_at) VALUES (${[accountId, values.plan, now].map(literal).join(', ')});`,
      `INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at) VALUES (${[
        id,
        accountId,
        createHash('sha256').update(key).digest('hex'),
        prefix,
        values.name ?? null,
        now,
      ]
        .map(literal)
        .join(', ')});`,
      auditSql(accountId, 'account_created', `npm run key -- create --plan ${values.plan}`, now),
      auditSql(accountId, 'key_created', prefix, now),
    ].join('\n'),
  );
  console.log(`Created a ${values.plan} key (id ${id}${values.name ? `, name "${values.name}"` : ''}) in account ${accountId}.`);
  console.log('It is shown once and only its SHA-256 is stored: keep it now. Send it as the X-API-Key header.');
  console.log(key);
} else if (command === 'list') {
  const rows = db.query(
    `SELECT k.id, k.prefix, a.plan, k.name, k.created_at, k.revoked_at, k.expires_at, coalesce(a.email, a.id) AS account
       FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at;`,
  );
  if (rows.length === 0) console.log('No keys yet: npm run key -- create --plan free');
  for (const r of rows) {
    const status = r.revoked_at ? `revoked ${r.revoked_at}` : r.expires_at ? `${r.expires_at > now ? 'ends' : 'ended'} ${r.expires_at}` : 'active';
    console.log([r.id, `${r.prefix}…`, r.plan, r.name ?? '-', r.created_at, status, r.account].join('\t'));
  }
} else {
  const matches = db.query(`SELECT id, account_id, prefix FROM api_keys WHERE id = ${literal(target)} OR prefix = ${literal(target.slice(0, 12))};`);
  if (matches.length !== 1) fail(matches.length ? `${target} matches ${matches.length} keys; use the id.` : `No key matches ${target}.`);
  const [match] = matches;
  db.execute(
    [
      `UPDATE api_keys SET revoked_at = ${literal(now)} WHERE id = ${literal(match.id)} AND revoked_at IS NULL;`,
      auditSql(match.account_id, 'key_revoked', `${match.prefix} (npm run key -- revoke)`, now, { ifChanged: true }),
    ].join('\n'),
  );
  await reloadAccount(worker, match.account_id);
  console.log(`Revoked ${match.id}.`);
}
