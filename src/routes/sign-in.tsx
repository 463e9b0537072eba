import { Hono, type Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '../env';
import { readMailSetup, type WorkingMailSetup } from '../mail/mail-setup';
import { MailSetupError } from '../mail/send-mail';
import { AccountDisabledPage, ConfirmPage, LinkExpiredPage, LinkSentPage, SignInPage, SignUpPage, SignUpUnavailablePage } from '../pages/sign-in-pages';
import { renderPage } from '../pages/layout';
import { accountNameForm, confirmForm, formFields, readForm, signInForm, signUpForm } from '../schemas/forms';
import { sendSignInLink } from '../sessions/send-sign-in-link';
import { clearSignedInHint, readSession, signOut, startSession } from '../sessions/sessions';
import { signInLinkEmail, useSignInLink } from '../sessions/sign-in-links';
import { forgetSignUpName, keepSignUpName, signUpName } from '../sessions/sign-up-name';
import { auditStatement } from '../store/audit';
import { accountExists, findOrCreateAccount } from '../store/accounts';

/**
 * The passwordless flow: /signup and /signin send a link (the same answer whether or not the address
 * has an account); the link opens a confirm page; its POST signs in, making the account the first time
 * with the name given on that page (prefilled in the browser that signed up, sign-up-name.ts).
 * Without a working mail setup, both forms give way to a page saying sign-up is not available, and the
 * log says why.
 */
export const signInRoutes = new Hono<AppEnv>()
  .get('/signup', (c) => formPage(c, <SignUpPage />))
  .post('/signup', async (c) => {
    const setup = workingMailSetup(c);
    if (!setup) return notAvailable(c);
    const fields = await formFields(c.req.raw);
    const form = readForm(signUpForm, fields);
    if (!form.ok) return renderPage(c, <SignUpPage values={fields} errors={form.errors} />, 400);
    keepSignUpName(c, form.data.name);
    return sendLink(c, setup, form.data.email);
  })
  .get('/signin', (c) => formPage(c, <SignInPage />))
  .post('/signin', async (c) => {
    const setup = workingMailSetup(c);
    if (!setup) return notAvailable(c);
    const fields = await formFields(c.req.raw);
    const form = readForm(signInForm, fields);
    if (!form.ok) return renderPage(c, <SignInPage values={fields} errors={form.errors} />, 400);
    return sendLink(c, setup, form.data.email);
  })
  .get('/auth/sent', (c) => {
    const setup = readMailSetup(c.env);
    return renderPage(c, <LinkSentPage localMode={setup.ok && setup.localOutbox} />);
  })
  .get('/auth/confirm', async (c) => {
    // The token is in this page's URL: it must not leave in a Referer.
    c.header('Referrer-Policy', 'no-referrer');
    const token = c.req.query('token') ?? '';
    const form = readForm(confirmForm, { token });
    const email = form.ok ? await signInLinkEmail(c.env.DB, form.data.token) : null;
    if (!form.ok || !email) return renderPage(c, <LinkExpiredPage />, 410);
    const newAccount = !(await accountExists(c.env.DB, email));
    return renderPage(c, <ConfirmPage token={form.data.token} newAccount={newAccount} values={{ name: signUpName(c) }} />);
  })
  .post('/auth/confirm', async (c) => {
    c.header('Referrer-Policy', 'no-referrer');
    const fields = await formFields(c.req.raw);
    const form = readForm(confirmForm, fields);
    const linkEmail = form.ok ? await signInLinkEmail(c.env.DB, form.data.token) : null;
    if (!form.ok || !linkEmail) return renderPage(c, <LinkExpiredPage />, 410);
    // Checked before the link is used, so that a missing name costs the user a retry, not the link.
    const named = (await accountExists(c.env.DB, linkEmail)) ? null : readForm(accountNameForm, fields);
    if (named && !named.ok) return renderPage(c, <ConfirmPage token={form.data.token} newAccount values={fields} errors={named.errors} />, 400);
    const email = await useSignInLink(c.env.DB, form.data.token);
    if (!email) return renderPage(c, <LinkExpiredPage />, 410);
    const { account, created } = await findOrCreateAccount(c.env.DB, {
      id: crypto.randomUUID(),
      email,
      name: named?.data.name ?? null,
      createdAt: new Date().toISOString(),
    });
    forgetSignUpName(c);
    if (account.disabled) return renderPage(c, <AccountDisabledPage />, 403);
    await startSession(c, account.id, created ? [auditStatement(c.env.DB, account.id, 'account_created', 'signed up, free plan')] : []);
    return c.redirect('/dashboard', 303);
  })
  .post('/auth/signout', async (c) => {
    const session = await readSession(c);
    if (session) await signOut(c, session);
    return c.redirect('/', 303);
  });

/** A sign-up or sign-in form: a signed-in user goes to the dashboard instead; without mail, not available. */
async function formPage(c: Context<AppEnv>, page: Child): Promise<Response> {
  if (await readSession(c)) return c.redirect('/dashboard', 303);
  clearSignedInHint(c);
  return workingMailSetup(c) ? renderPage(c, page) : notAvailable(c);
}

/** The mail setup, or null after telling the operator, in the log, what is wrong with it. */
function workingMailSetup(c: Context<AppEnv>): WorkingMailSetup | null {
  const setup = readMailSetup(c.env);
  if (setup.ok) return setup;
  for (const problem of setup.problems) reportSetupProblem(problem);
  return null;
}

function reportSetupProblem(problem: string): void {
  console.error(`[config] Sign-up and sign-in are off: ${problem} (README, "Deploy")`);
}

function notAvailable(c: Context<AppEnv>): Response {
  return renderPage(c, <SignUpUnavailablePage />, 503);
}

async function sendLink(c: Context<AppEnv>, setup: WorkingMailSetup, email: string): Promise<Response> {
  try {
    await sendSignInLink(c.env, setup, { email, clientIp: c.req.header('CF-Connecting-IP'), nowMs: c.var.nowMs });
  } catch (err) {
    if (!(err instanceof MailSetupError)) throw err;
    reportSetupProblem(err.message);
    return notAvailable(c);
  }
  return c.redirect('/auth/sent', 303);
}
