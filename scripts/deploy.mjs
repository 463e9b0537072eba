// `npm run build` (node scripts/deploy.mjs --dry-run) and `npm run deploy`, for the top-level Worker or
// `--env NAME` (a staging environment): the deployment's settings are checked first and what is missing is
// printed as warnings (README, "Deploy"), with the rules the Worker itself applies (src/mail/mail-setup.ts);
// then wrangler bundles (--dry-run, offline) or applies the D1 migrations and deploys.
import { spawnSync } from 'node:child_process';
import { unstable_readConfig } from 'wrangler';
import { readMailSetup, senderAddress } from '../src/mail/mail-setup.ts';
import { quietWranglerEnv, wranglerBin, wranglerEnv } from './wrangler.mjs';

const PLACEHOLDER_ID = '00000000-0000-0000-0000-000000000000';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const valueOf = (flag, short) => {
  const i = args.findIndex((a) => a === flag || a === short);
  return i < 0 ? undefined : args[i + 1];
};
const envName = valueOf('--env', '-e');
const configPath = valueOf('--config', '-c') ?? 'wrangler.toml';

/** What a deployment of this configuration lacks: `problems` break sign-up or the deploy, `notes` are advice. */
function checkDeployment(config) {
  const problems = [];
  const notes = [];
  const vars = config.vars ?? {};
  const db = config.d1_databases.find((d) => d.binding === 'DB');
  if (!db) problems.push('There is no D1 binding named DB.');
  else if (!db.database_id || db.database_id === PLACEHOLDER_ID) {
    problems.push('database_id of DB is the placeholder: run `npx wrangler d1 create squeeze-edge` and put the id it prints into wrangler.toml.');
  }
  for (const name of ['RATE_LIMITER', 'ACCOUNT_GATE']) {
    if (!config.durable_objects.bindings.some((b) => b.name === name)) problems.push(`There is no Durable Object binding named ${name}.`);
  }

  const transport = vars.MAIL_TRANSPORT;
  if (transport === 'outbox') {
    problems.push('MAIL_TRANSPORT is "outbox", local mode: no mail would leave. Use "cloudflare" or "resend".');
  }
  const setup = readMailSetup({
    ...vars,
    EMAIL: config.send_email.some((b) => b.name === 'EMAIL') || undefined,
    // A secret: not in the configuration, so not checked here (noted below).
    RESEND_API_KEY: 'unseen',
  });
  if (!setup.ok) problems.push(...setup.problems);
  else if (!setup.origin.startsWith('https:')) problems.push(`PUBLIC_ORIGIN "${vars.PUBLIC_ORIGIN}" must be https for a deployment.`);
  if (transport === 'resend') {
    notes.push(`RESEND_API_KEY is a secret the build cannot see: set it with \`npx wrangler secret put RESEND_API_KEY${envName ? ` --env ${envName}` : ''}\`.`);
  }
  notes.push(
    `OPERATOR_TOKEN is a secret the build cannot see: set it with \`npx wrangler secret put OPERATOR_TOKEN${envName ? ` --env ${envName}` : ''}\`, or the operator commands cannot reach the accounts' objects (README, "Operator commands").`,
  );
  if (!vars.SUPPORT_EMAIL) {
    notes.push(
      `SUPPORT_EMAIL is not set: the plan page asks users to write to ${vars.MAIL_FROM ? senderAddress(String(vars.MAIL_FROM)) : "MAIL_FROM's address"} for upgrades.`,
    );
  }
  if (!config.routes?.length && !config.route) {
    notes.push('No routes or custom domain: the Worker is served at https://<name>.<your subdomain>.workers.dev, which PUBLIC_ORIGIN must then name.');
  }
  if (!config.observability?.enabled) notes.push('[observability] is off: Workers Logs will not keep what the Worker logs (npx wrangler tail still streams it).');
  return { problems, notes };
}

/** Runs wrangler here; a real deploy keeps the terminal's colours and prompts. */
function wrangler(wranglerArgs) {
  const result = spawnSync(process.execPath, [wranglerBin, ...wranglerArgs], { stdio: 'inherit', env: dryRun ? wranglerEnv : quietWranglerEnv });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const config = unstable_readConfig({ config: configPath, env: envName });
const { problems, notes } = checkDeployment(config);
const target = `${configPath}${envName ? `, environment ${envName}` : ''}`;
if (problems.length > 0) {
  console.warn(`\nWarning: this deployment (${target}) is not fully configured (README, "Deploy"):`);
  for (const problem of problems) console.warn(`  - ${problem}`);
  console.warn('Without its database a deploy fails; without mail, sign-up and sign-in answer "not available" (the API and its keys work).\n');
}
for (const note of notes) console.log(`Note: ${note}`);

const passOn = ['--config', configPath, ...(envName ? ['--env', envName] : [])];
if (dryRun) {
  wrangler(['deploy', '--dry-run', '--outdir', 'dist', ...passOn]);
} else {
  wrangler(['d1', 'migrations', 'apply', 'DB', '--remote', ...passOn]);
  wrangler(['deploy', ...passOn]);
}
