import { EMAIL_MAX, PERSON_NAME_MAX } from '../schemas/forms';
import { LINK_COALESCE_MS, LINK_LIFETIME_MS } from '../sessions/sign-in-links';
import { Page } from './layout';
import { TextField } from './parts';

/** The passwordless flow's pages: sign up, sign in, "check your email", confirm, and a link that no longer works. */

const MINUTES = LINK_LIFETIME_MS / 60_000;
const COALESCE_MINUTES = LINK_COALESCE_MS / 60_000;

export interface FormState {
  values?: { name?: string; email?: string };
  errors?: { name?: string; email?: string };
}

function EmailField({ values, errors }: FormState) {
  return <TextField id="email" name="email" type="email" label="Email address" autocomplete="email" maxlength={EMAIL_MAX} value={values?.email} error={errors?.email} />;
}

function SignInForm(state: FormState) {
  return (
    <form class="card form" method="post" action="/signin">
      <EmailField {...state} />
      <button class="button" type="submit">
        Email me a sign-in link
      </button>
    </form>
  );
}

export function SignUpPage(state: FormState) {
  const { values, errors } = state;
  return (
    <Page title="Get an API key" current="signup">
      <h1>Get an API key</h1>
      <p class="lead">
        The free plan gives you 500 compressions a month. There is no password: we email you a link, and opening it signs
        you in and takes you to your dashboard, where your first key is one click away.
      </p>
      <form class="card form" method="post" action="/signup">
        <TextField id="name" name="name" label="Your name" autocomplete="name" maxlength={PERSON_NAME_MAX} value={values?.name} error={errors?.name} />
        <EmailField {...state} />
        <button class="button" type="submit">
          Email me a sign-in link
        </button>
      </form>
      <p>
        Already have an account? <a href="/signin">Sign in</a>.
      </p>
    </Page>
  );
}

export function SignInPage(state: FormState) {
  return (
    <Page title="Sign in" current="signin">
      <h1>Sign in</h1>
      <p class="lead">Give the email address of your account and we will send you a link that signs you in.</p>
      <SignInForm {...state} />
      <p>
        New here? <a href="/signup">Get a key</a>.
      </p>
    </Page>
  );
}

/** The same page whatever the address: it must not tell who has an account. */
export function LinkSentPage({ localMode }: { localMode: boolean }) {
  return (
    <Page title="Check your email">
      <h1>Check your email</h1>
      <p class="lead">
        If the address can receive mail, a sign-in link is on its way. It works once, within {MINUTES} minutes.
      </p>
      {localMode && (
        <div class="notice" role="note">
          <p>
            <strong>Local mode:</strong> this server sends no mail. The link is printed in the terminal running{' '}
            <code>npm start</code> and listed at <a href="/dev/outbox">/dev/outbox</a>.
          </p>
        </div>
      )}
      <p>
        We send an address at most one link every {COALESCE_MINUTES} minutes: if you asked a moment ago, the link that came
        then is the one to open. Nothing arrived? Look in your spam folder, or <a href="/signin">ask again</a> in a few minutes.
      </p>
    </Page>
  );
}

/** A deployment that cannot send mail: nothing here says why (the operator's log does). */
export function SignUpUnavailablePage() {
  return (
    <Page title="Sign-up is not available">
      <h1>Sign-up is not available</h1>
      <p class="lead">
        This service cannot send sign-in emails at the moment, so signing up and signing in are turned off. Nothing you did
        caused this. Keys you already have keep working.
      </p>
      <p>
        Try again later. In the meantime, the <a href="/">demo</a> needs no account.
      </p>
    </Page>
  );
}

/**
 * What a sign-in link opens: nothing happens until the button is pressed (mail scanners open links too).
 * A link that creates the account asks its name here, never from the request that made the link.
 */
export function ConfirmPage({ token, newAccount, values, errors }: { token: string; newAccount: boolean } & FormState) {
  return (
    <Page title={newAccount ? 'Create your account' : 'Finish signing in'}>
      <h1>{newAccount ? 'Create your account' : 'Finish signing in'}</h1>
      <p class="lead">
        {newAccount
          ? 'You opened a sign-in link for an address that has no account yet. Give your name and press the button to create the account and sign in.'
          : 'You opened a sign-in link. Press the button to sign in.'}
      </p>
      <form class="card form" method="post" action="/auth/confirm">
        <input type="hidden" name="token" value={token} />
        {newAccount && <TextField id="name" name="name" label="Your name" autocomplete="name" maxlength={PERSON_NAME_MAX} value={values?.name} error={errors?.name} />}
        <button class="button" type="submit">
          {newAccount ? 'Create my account' : 'Sign in to Squeeze'}
        </button>
      </form>
    </Page>
  );
}

export function LinkExpiredPage() {
  return (
    <Page title="This link no longer works">
      <h1>This link no longer works</h1>
      <p class="lead">
        A sign-in link works once, within {MINUTES} minutes of being sent. Ask for a new one and open the newest email.
      </p>
      <SignInForm />
    </Page>
  );
}

export function AccountDisabledPage() {
  return (
    <Page title="Account disabled">
      <h1>This account is disabled</h1>
      <p class="lead">
        It cannot sign in and its keys do not work. Write to the operator of this service if you think this is a mistake.
      </p>
    </Page>
  );
}
