import { Hono, type Context } from 'hono';
import type { AppEnv, Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import { createAccountKey, revokeAccountKey, rollAccountKey } from '../keys/account-keys';
import { flushAccountUsage } from '../limits/account-calls';
import { monthWindow } from '../limits/month';
import { readMailSetup, senderAddress } from '../mail/mail-setup';
import { DashboardPage, PlanPage, type UpgradeContact } from '../pages/dashboard-page';
import { KeyShownPage, KeysPage, NewKeyPage, type KeysPageProps, type NewKey } from '../pages/keys-pages';
import { renderPage } from '../pages/layout';
import { SecurityPage } from '../pages/security-page';
import { chartDays, firstChartDay } from '../pages/usage-chart';
import { formFields, keyNameForm, readForm, rollForm } from '../schemas/forms';
import { openAfterRedirect, sealForRedirect } from '../sessions/sealed-cookie';
import { endOtherSessions, endSession, liveSessions } from '../sessions/sessions';
import { findPlan, listPlans } from '../store/accounts';
import { recentAuditEvents } from '../store/audit';
import { listAccountKeys } from '../store/keys';
import { readAccountDailyUsage, readAccountMonthUsage } from '../store/usage';

const NEW_KEY_PATH = '/dashboard/keys/new';
const NEW_KEY_COOKIE = 'new-key';

/** The signed-in pages (requireSession runs first, see app.ts): overview, keys, security, plan. */
export const dashboardRoutes = new Hono<AppEnv>()
  .get('/dashboard', async (c) => {
    const { session } = c.var;
    const nowMs = Date.now();
    const month = monthWindow(nowMs);
    // The account's object holds the compressions D1 has not got yet: written first, the page shows them all.
    await flushAccountUsage(c.env, session.accountId);
    const [plan, usage, days, keys] = await Promise.all([
      findPlan(c.env.DB, session.plan),
      readAccountMonthUsage(c.env.DB, session.accountId, month.key),
      readAccountDailyUsage(c.env.DB, session.accountId, firstChartDay(nowMs)),
      listAccountKeys(c.env.DB, session.accountId, month.key),
    ]);
    return renderPage(c, <DashboardPage session={session} plan={plan} month={usage} resetMs={month.resetMs} days={chartDays(days, nowMs)} keys={keys} />);
  })
  .get('/dashboard/plan', async (c) => renderPage(c, <PlanPage session={c.var.session} plans={await listPlans(c.env.DB)} contact={upgradeContact(c.env)} />))
  .get('/dashboard/keys', (c) => keysPage(c))
  .post('/dashboard/keys', async (c) => {
    const fields = await formFields(c.req.raw);
    const form = readForm(keyNameForm, fields);
    if (!form.ok) return keysPage(c, { nameError: form.errors.name, nameValue: fields.name }, 400);
    const created = await createAccountKey(c.env.DB, c.var.session.accountId, form.data.name);
    if (!created) return keysPage(c, { notice: 'You already have 10 working keys. Revoke one you no longer use first.', nameValue: form.data.name }, 400);
    return showNewKey(c, { secret: created.key, name: form.data.name });
  })
  .get(NEW_KEY_PATH, async (c) => {
    const sealed = await openAfterRedirect(c, NEW_KEY_COOKIE, NEW_KEY_PATH);
    const { session } = c.var;
    if (!sealed) return renderPage(c, <KeyShownPage session={session} />);
    const setup = readMailSetup(c.env);
    // The try-it command names the origin the service is published at (the request's only if that is unset).
    const origin = setup.ok ? setup.origin : new URL(c.req.url).origin;
    return renderPage(c, <NewKeyPage session={session} newKey={JSON.parse(sealed) as NewKey} origin={origin} />);
  })
  .post('/dashboard/keys/:id/revoke', async (c) => {
    const id = c.req.param('id');
    const revoked = await revokeAccountKey(c.env, c.var.session.accountId, id);
    if (revoked === 'not_found') throw new ApiError('not_found', 'You have no such key.');
    if (!revoked.confirmed) return keysPage(c, { unconfirmedRevoke: { id, prefix: revoked.prefix } }, 503);
    return c.redirect('/dashboard/keys', 303);
  })
  .post('/dashboard/keys/:id/roll', async (c) => {
    const form = readForm(rollForm, await formFields(c.req.raw));
    if (!form.ok) return keysPage(c, { notice: form.errors.ends }, 400);
    const rolled = await rollAccountKey(c.env, c.var.session.accountId, c.req.param('id'), form.data.ends);
    if (rolled === 'not_found') throw new ApiError('not_found', 'You have no such key.');
    if (rolled === 'not_rollable') return keysPage(c, { notice: 'Only an active key can be rolled; this one is revoked or already ending.' }, 400);
    if (rolled === 'too_many') {
      return keysPage(c, { notice: 'Keeping the old key for 24 hours would make 11 working keys: end it now, or revoke another key first.' }, 400);
    }
    return showNewKey(c, { secret: rolled.key, name: rolled.name, oldKeyEnds: form.data.ends, ...(rolled.confirmed ? {} : { unconfirmed: true }) });
  })
  .get('/dashboard/security', async (c) => {
    const { session } = c.var;
    const [sessions, events] = await Promise.all([liveSessions(c.env.DB, session.accountId), recentAuditEvents(c.env.DB, session.accountId)]);
    return renderPage(c, <SecurityPage session={session} sessions={sessions} events={events} />);
  })
  .post('/dashboard/sessions/end-others', async (c) => {
    await endOtherSessions(c.env.DB, c.var.session);
    return c.redirect('/dashboard/security', 303);
  })
  .post('/dashboard/sessions/:id/end', async (c) => {
    if (!(await endSession(c.env.DB, c.var.session, c.req.param('id')))) throw new ApiError('not_found', 'You have no such session.');
    return c.redirect('/dashboard/security', 303);
  });

/** SUPPORT_EMAIL, else the address sign-in mail comes from (replies reach the operator), else local mode's command. */
function upgradeContact(env: Bindings): UpgradeContact {
  if (env.SUPPORT_EMAIL) return { address: env.SUPPORT_EMAIL };
  const setup = readMailSetup(env);
  if (setup.ok && setup.transport === 'outbox') return 'local-mode';
  return setup.ok && env.MAIL_FROM ? { address: senderAddress(env.MAIL_FROM) } : null;
}

/**
 * A new key is shown after a redirect (POST, 303, GET), so a reload never makes another: the secret
 * crosses the redirect in a cookie sealed to the session (sessions/sealed-cookie.ts), never in the URL.
 */
async function showNewKey(c: Context<AppEnv>, newKey: NewKey): Promise<Response> {
  await sealForRedirect(c, NEW_KEY_COOKIE, NEW_KEY_PATH, JSON.stringify(newKey));
  return c.redirect(NEW_KEY_PATH, 303);
}

async function keysPage(
  c: Context<AppEnv>,
  form: Pick<KeysPageProps, 'nameError' | 'nameValue' | 'notice' | 'unconfirmedRevoke'> = {},
  status: 200 | 400 | 503 = 200,
): Promise<Response> {
  const { session } = c.var;
  await flushAccountUsage(c.env, session.accountId);
  const [plan, keys] = await Promise.all([findPlan(c.env.DB, session.plan), listAccountKeys(c.env.DB, session.accountId, monthWindow(Date.now()).key)]);
  return renderPage(c, <KeysPage session={session} plan={plan} keys={keys} {...form} />, status);
}
