import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import type { MailMessage } from './message';
import type { MailTransport } from './mail-setup';
import { putInOutbox } from './outbox';

const RESEND_URL = 'https://api.resend.com/emails';
/** Resend's answers that mean the setup is wrong (a bad key, a sender it refuses), not a passing failure. */
const RESEND_SETUP_STATUSES = [401, 403, 422];

/**
 * A mail transport that refused the setup itself: the operator must fix it (the message says what, for
 * the logs); visitors are told sign-up is not available.
 */
export class MailSetupError extends Error {
  override name = 'MailSetupError';
}

/**
 * Sends through the transport the mail setup chose (README, "Mail"): `outbox` (local mode), `cloudflare`
 * (the EMAIL send_email binding) or `resend` (HTTPS API, RESEND_API_KEY). A failure is logged for the
 * operator; the request gets a 503 saying to try again, or a MailSetupError when retrying cannot help.
 */
export async function sendMail(env: Bindings, transport: MailTransport, message: MailMessage): Promise<void> {
  switch (transport) {
    case 'outbox':
      putInOutbox(message);
      return;
    case 'cloudflare':
      return deliver(() => env.EMAIL!.send({ from: env.MAIL_FROM!, to: message.to, subject: message.subject, text: message.text }));
    case 'resend':
      return deliver(async () => {
        const response = await fetch(RESEND_URL, {
          method: 'POST',
          headers: { Authorization: `Bearer ${env.RESEND_API_KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ from: env.MAIL_FROM, to: [message.to], subject: message.subject, text: message.text }),
        });
        if (response.ok) return;
        const answer = `Resend answered ${response.status}: ${(await response.text()).slice(0, 200)}`;
        throw RESEND_SETUP_STATUSES.includes(response.status) ? new MailSetupError(answer) : new Error(answer);
      });
  }
}

async function deliver(send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (err) {
    if (err instanceof MailSetupError) throw err;
    console.error(`[mail] A sign-in email could not be sent: ${err instanceof Error ? err.message : String(err)}`);
    throw new ApiError('service_unavailable', 'The sign-in email could not be sent. Try again in a minute.', { cause: err, headers: { 'Retry-After': '60' } });
  }
}
