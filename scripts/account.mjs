import { parseArgs } from 'node:util';
import { auditSql, fail, literal, openD1, PLANS, reloadAccount, workerTarget } from './d1.mjs';

const USAGE = `Usage:
  npm run account -- list [--remote]
  npm run account -- show <email or account id> [--remote]
  npm run account -- plan <email or account id> free|pro|business [--remote]
  npm run account -- disable <email or account id> [--remote]
  npm run account -- enable <email or account id> [--remote]
  npm run account -- reload <email or account id> [--remote]

Works against the local D1 that \`npm start\` uses; --remote targets the deployed D1. Pending migrations are
applied first. Plan changes, disabling and enabling are recorded in the account's audit log (the user sees
them on the dashboard's security page). A disabled account's keys get 401 and its sessions end. Changes
are also sent to the running Worker, so they apply to the next request: locally the \`npm start\` of the
state, on any port (SQUEEZE_URL names another); with --remote, set SQUEEZE_URL and OPERATOR_TOKEN (the deployed Worker's secret).
\`reload\` only tells the Worker, after an edit of the account's rows in D1 by hand.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { remote: { type: 'boolean', default: false }, help: { type: 'boolean' } },
});
const [command, who, plan] = positionals;
const COMMANDS = ['list', 'show', 'plan', 'disable', 'enable', 'reload'];

if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
if (!COMMANDS.includes(command)) fail(USAGE);
if (command !== 'list' && !who) fail(`${command} needs an email or an account id.\n\n${USAGE}`);
if (command === 'plan' && !PLANS.includes(plan)) fail(`The plan must be one of ${PLANS.join(', ')}.\n\n${USAGE}`);

const worker = ['plan', 'disable', 'enable', 'reload'].includes(command) ? workerTarget(values.remote) : null;
const db = openD1(values.remote);
const now = new Date().toISOString();
const month = now.slice(0, 7);
/** The account's compressions this month: the sum over its keys, as the quota counts them. */
const monthUsed = `(SELECT coalesce(sum(u.requests), 0) FROM monthly_usage u JOIN api_keys k ON k.id = u.key_id
                    WHERE k.account_id = a.id AND u.month = ${literal(month)})`;
const liveKeys = `(SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL
                    AND (k.expires_at IS NULL OR k.expires_at > ${literal(now)}))`;

if (command === 'list') {
  const rows = db.query(
    `SELECT a.id, a.email, a.name, a.plan, a.created_at, a.disabled_at, ${liveKeys} AS keys, ${monthUsed} AS used
       FROM accounts a ORDER BY a.created_at;`,
  );
  if (rows.length === 0) console.log('No accounts yet.');
  for (const r of rows) {
    console.log(
      [r.id, r.email ?? '-', r.name ?? '-', r.plan, `live keys: ${r.keys}`, `this month: ${r.used}`, r.created_at, r.disabled_at ? `disabled ${r.disabled_at}` : 'active'].join('\t'),
    );
  }
  process.exit(0);
}

const [account] = db.query(
  `SELECT a.id, a.email, a.name, a.plan, a.created_at, a.disabled_at, p.monthly_quota, p.per_minute, ${monthUsed} AS used
     FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.email = ${literal(who.toLowerCase())} OR a.id = ${literal(who)};`,
);
if (!account) fail(`No account has the email or id ${who}.`);
const id = literal(account.id);

if (command === 'show') {
  console.log(`Account ${account.id}`);
  console.log(`  email     ${account.email ?? '- (made by the key command: no dashboard sign-in)'}`);
  console.log(`  name      ${account.name ?? '-'}`);
  console.log(`  plan      ${account.plan}: ${account.per_minute} a minute, ${account.monthly_quota} a month`);
  console.log(`  month     ${account.used} of ${account.monthly_quota} compressions in ${month}`);
  console.log(`  created   ${account.created_at}`);
  console.log(`  status    ${account.disabled_at ? `disabled ${account.disabled_at}` : 'active'}`);
  const keys = db.query(`SELECT prefix, name, created_at, last_used_at, expires_at, revoked_at FROM api_keys WHERE account_id = ${id} ORDER BY created_at;`);
  console.log(`Keys (${keys.length})`);
  for (const k of keys) {
    const status = k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at ? `ends ${k.expires_at}` : 'active';
    console.log(`  ${k.prefix}…\t${k.name ?? '-'}\tcreated ${k.created_at}\tlast used ${k.last_used_at ?? 'never'}\t${status}`);
  }
  const events = db.query(`SELECT at, actor, event, detail FROM audit_events WHERE account_id = ${id} ORDER BY id DESC LIMIT 20;`);
  console.log(`Recent events (${events.length})`);
  for (const e of events) console.log(`  ${e.at}\t${e.actor}\t${e.event}\t${e.detail ?? ''}`);
} else if (command === 'plan') {
  db.execute(
    [
      `UPDATE accounts SET plan = ${literal(plan)} WHERE id = ${id} AND plan <> ${literal(plan)};`,
      auditSql(account.id, 'plan_changed', `${account.plan} → ${plan}`, now, { ifChanged: true }),
    ].join('\n'),
  );
  await reloadAccount(worker, account.id);
  console.log(account.plan === plan ? `${who} is already on ${plan}.` : `${who}: plan ${account.plan} → ${plan}.`);
} else if (command === 'disable') {
  db.execute(
    [
      `UPDATE accounts SET disabled_at = ${literal(now)} WHERE id = ${id} AND disabled_at IS NULL;`,
      auditSql(account.id, 'account_disabled', 'by the operator: keys refused, sessions ended', now, { ifChanged: true }),
      `UPDATE sessions SET ended_ms = ${Date.now()} WHERE account_id = ${id} AND ended_ms IS NULL;`,
    ].join('\n'),
  );
  await reloadAccount(worker, account.id);
  console.log(`${who} is disabled: its keys get 401 and its sessions have ended.`);
} else if (command === 'reload') {
  if (await reloadAccount(worker, account.id)) console.log(`${who}: the Worker has read the account from D1 again.`);
} else {
  db.execute(
    [`UPDATE accounts SET disabled_at = NULL WHERE id = ${id} AND disabled_at IS NOT NULL;`, auditSql(account.id, 'account_enabled', 'by the operator', now, { ifChanged: true })].join('\n'),
  );
  await reloadAccount(worker, account.id);
  console.log(`${who} is enabled.`);
}
