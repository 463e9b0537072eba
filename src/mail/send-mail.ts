import type { Bindings } from '../env';
import { ApiError } from '../errors/api-error';
import type { MailMessage } from './message';
import { putInOutbox } from './outbox';

const RESEND_URL = 'https://api.resend.com/emails';

/**
 * Sends through the transport MAIL_TRANSPORT names (README, "Mail"): `outbox` (local mode), `cloudflare`
 * (the EMAIL send_email binding) or `resend` (HTTPS API, RESEND_API_KEY). A missing or failing transport
 * is a 503: the user is told to try again rather than wait for mail that will not come.
 */
export async function sendMail(env: Bindings, message: MailMessage): Promise<void> {
  switch (env.MAIL_TRANSPORT) {
    case 'outbox':
      putInOutbox(message);
      return;
    case 'cloudflare':
      return deliver(() => {
        if (!env.EMAIL) throw new Error('MAIL_TRANSPORT is cloudflare but there is no EMAIL send_email binding');
        return env.EMAIL.send({ from: sender(env), to: message.to, subject: message.subject, text: message.text });
      });
    case 'resend':
      return deliver(async () => {
        if (!env.RESEND_API_KEY) throw new Error('MAIL_TRANSPORT is resend but RESEND_API_KEY is not set');
        const response = await fetch(RESEND_URL, {
          method: 'POST',
          headers: { Authorization: `Bearer ${env.RESEND_API_KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ from: sender(env), to: [message.to], subject: message.subject, text: message.text }),
        });
        if (!response.ok) throw new Error(`Resend answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      });
    default:
      throw new ApiError('service_unavailable', 'This server cannot send mail: MAIL_TRANSPORT is not configured.');
  }
}

function sender(env: Bindings): string {
  if (!env.MAIL_FROM) throw new Error('MAIL_FROM is not set');
  return env.MAIL_FROM;
}

async function deliver(send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (err) {
    throw new ApiError('service_unavailable', 'The sign-in email could not be sent. Try again in a minute.', { cause: err });
  }
}
