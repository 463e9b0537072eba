import { LINK_LIFETIME_MS } from '../sessions/sign-in-links';

/** A message the service sends; `link` is what the recipient is meant to open (the outbox shows it apart). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  link: string;
}

/**
 * The sign-in mail. One wording for new and known addresses: the page that sent it must not tell them
 * apart, and neither does the mail (the first confirmed link makes the account).
 */
export function signInMessage(to: string, link: string): MailMessage {
  const minutes = LINK_LIFETIME_MS / 60_000;
  return {
    to,
    subject: 'Your Squeeze sign-in link',
    text: [
      'Open this link to sign in to Squeeze (the first time, it creates your account on the free plan):',
      '',
      link,
      '',
      `It works once, within ${minutes} minutes. If you did not ask for it, ignore this message: nothing happens without the link.`,
    ].join('\n'),
    link,
  };
}
