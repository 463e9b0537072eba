import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { applySchema, d1Target, runWrangler } from './wrangler.mjs';

const USAGE = `Usage:
  npm run key -- create --plan free|pro|business [--name TEXT] [--remote]
  npm run key -- list [--remote]
  npm run key -- revoke <key id or key prefix> [--remote]

Works against the local D1 that \`npm start\` uses; --remote targets the deployed D1.`;
const PLANS = ['free', 'pro', 'business'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { plan: { type: 'string' }, name: { type: 'string' }, remote: { type: 'boolean', default: false }, help: { type: 'boolean' } },
});
const [command, target] = positionals;

/** SQL string literal: the only quoting this script needs, since values go through a file, not a shell. */
const literal = (value) => (value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`);

function execute(sql) {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-key-'));
  try {
    writeFileSync(join(dir, 'command.sql'), sql);
    return runWrangler(['d1', 'execute', 'DB', ...d1Target(values.remote), '--json', '--file', join(dir, 'command.sql')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function query(sql) {
  const output = execute(sql);
  const parsed = JSON.parse(output.slice(output.indexOf('[')));
  return parsed.flatMap((result) => result.results ?? []);
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
applySchema(values.remote);

if (command === 'create') {
  if (!PLANS.includes(values.plan)) fail(`--plan must be one of ${PLANS.join(', ')}.\n\n${USAGE}`);
  // 192 random bits, base64url; the prefix makes a leaked key recognisable to secret scanners.
  const key = `sqz_${randomBytes(24).toString('base64url')}`;
  const id = randomUUID();
  execute(
    `INSERT INTO api_keys (id, key_hash, prefix, plan, name, created_at) VALUES (${[
      id,
      createHash('sha256').update(key).digest('hex'),
      key.slice(0, 12),
      values.plan,
      values.name ?? null,
      new Date().toISOString(),
    ]
      .map(literal)
      .join(', ')});`,
  );
  console.log(`Created a ${values.plan} key (id ${id}${values.name ? `, name "${values.name}"` : ''}).`);
  console.log('It is shown once and only its SHA-256 is stored: keep it now. Send it as the X-API-Key header.');
  console.log(key);
} else if (command === 'list') {
  const rows = query('SELECT id, prefix, plan, name, created_at, revoked_at FROM api_keys ORDER BY created_at;');
  if (rows.length === 0) console.log('No keys yet: npm run key -- create --plan free');
  for (const r of rows) {
    console.log([r.id, `${r.prefix}…`, r.plan, r.name ?? '-', r.created_at, r.revoked_at ? `revoked ${r.revoked_at}` : 'active'].join('\t'));
  }
} else if (command === 'revoke') {
  if (!target) fail(`revoke needs a key id or prefix.\n\n${USAGE}`);
  const matches = query(`SELECT id FROM api_keys WHERE id = ${literal(target)} OR prefix = ${literal(target.slice(0, 12))};`);
  if (matches.length !== 1) fail(matches.length ? `${target} matches ${matches.length} keys; use the id.` : `No key matches ${target}.`);
  execute(`UPDATE api_keys SET revoked_at = ${literal(new Date().toISOString())} WHERE id = ${literal(matches[0].id)} AND revoked_at IS NULL;`);
  console.log(`Revoked ${matches[0].id}.`);
} else {
  fail(USAGE);
}
