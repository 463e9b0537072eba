import { Hono, type Context } from 'hono';
import type { AppEnv } from '../env';
import { countSignInRequest } from '../limits/sign-in-requests';
import { signInMessage } from '../mail/message';
import { sendMail } from '../mail/send-mail';
import { AccountDisabledPage, ConfirmPage, LinkExpiredPage, LinkSentPage, SignInPage, SignUpPage } from '../pages/sign-in-pages';
import { renderPage } from '../pages/layout';
import { confirmForm, formFields, readForm, signInForm, signUpForm } from '../schemas/forms';
import { readSession, signOut, startSession } from '../sessions/sessions';
import { issueSignInLink, signInLinkWorks, useSignInLink } from '../sessions/sign-in-links';
import { auditStatement } from '../store/audit';
import { findOrCreateAccount } from '../store/accounts';

/**
 * The passwordless flow: /signup and /signin send a link (the same answer whether or not the address
 * has an account); the link opens a confirm page; its POST signs in, making the account the first time.
 */
export const signInRoutes = new Hono<AppEnv>()
  .get('/signup', (c) => renderPage(c, <SignUpPage />))
  .post('/signup', async (c) => {
    const fields = await formFields(c.req.raw);
    const form = readForm(signUpForm, fields);
    if (!form.ok) return renderPage(c, <SignUpPage values={fields} errors={form.errors} />, 400);
    return sendLink(c, form.data.email, form.data.name);
  })
  .get('/signin', (c) => renderPage(c, <SignInPage />))
  .post('/signin', async (c) => {
    const fields = await formFields(c.req.raw);
    const form = readForm(signInForm, fields);
    if (!form.ok) return renderPage(c, <SignInPage values={fields} errors={form.errors} />, 400);
    return sendLink(c, form.data.email, null);
  })
  .get('/auth/sent', (c) => renderPage(c, <LinkSentPage localMode={c.env.MAIL_TRANSPORT === 'outbox'} />))
  .get('/auth/confirm', async (c) => {
    // The token is in this page's URL: it must not leave in a Referer.
    c.header('Referrer-Policy', 'no-referrer');
    const token = c.req.query('token') ?? '';
    const form = readForm(confirmForm, { token });
    if (!form.ok || !(await signInLinkWorks(c.env.DB, form.data.token))) return renderPage(c, <LinkExpiredPage />, 410);
    return renderPage(c, <ConfirmPage token={form.data.token} />);
  })
  .post('/auth/confirm', async (c) => {
    c.header('Referrer-Policy', 'no-referrer');
    const form = readForm(confirmForm, await formFields(c.req.raw));
    const link = form.ok ? await useSignInLink(c.env.DB, form.data.token) : null;
    if (!link) return renderPage(c, <LinkExpiredPage />, 410);
    const { account, created } = await findOrCreateAccount(c.env.DB, {
      id: crypto.randomUUID(),
      email: link.email,
      name: link.name,
      createdAt: new Date().toISOString(),
    });
    if (account.disabled) return renderPage(c, <AccountDisabledPage />, 403);
    await startSession(c, account.id, created ? [auditStatement(c.env.DB, account.id, 'account_created', 'signed up, free plan')] : []);
    return c.redirect('/dashboard', 303);
  })
  .post('/auth/signout', async (c) => {
    const session = await readSession(c);
    if (session) await signOut(c, session);
    return c.redirect('/', 303);
  });

async function sendLink(c: Context<AppEnv>, email: string, name: string | null): Promise<Response> {
  await countSignInRequest(c.env, email, c.req.header('CF-Connecting-IP'), c.var.nowMs);
  // The link leads back to the host this request came to: Cloudflare runs the Worker only for its own
  // routes, so a forged Host header cannot point a link elsewhere.
  const link = await issueSignInLink(c.env.DB, new URL(c.req.url).origin, email, name);
  await sendMail(c.env, signInMessage(email, link));
  return c.redirect('/auth/sent', 303);
}
