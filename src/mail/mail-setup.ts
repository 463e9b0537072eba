/**
 * Whether this deployment can send sign-in mail, decided from its settings alone, and what the operator
 * must fix when it cannot (README, "Deploy"). The Worker checks it before showing the sign-up and sign-in
 * forms; `npm run build` runs the same rules on wrangler.toml. No imports: Node loads this file as is.
 */

/** The settings sign-in mail depends on: [vars] in wrangler.toml, secrets, and the EMAIL binding. */
export interface MailSettings {
  MAIL_TRANSPORT?: string | undefined;
  MAIL_FROM?: string | undefined;
  RESEND_API_KEY?: string | undefined;
  EMAIL?: unknown;
  PUBLIC_ORIGIN?: string | undefined;
  MAIL_PER_HOUR?: string | undefined;
}

export type MailTransport = 'outbox' | 'cloudflare' | 'resend';

export interface WorkingMailSetup {
  ok: true;
  transport: MailTransport;
  /** Where sign-in links point: PUBLIC_ORIGIN, never the host a request named. */
  origin: string;
  /** Local mode whose server says it listens on loopback only: /dev/outbox may be served. */
  localOutbox: boolean;
  /** The global cap on sign-in mail an hour. */
  mailsPerHour: number;
}

export type MailSetup = WorkingMailSetup | { ok: false; problems: string[] };

/** The global hourly cap on sign-in mail when MAIL_PER_HOUR is not set. */
export const DEFAULT_MAILS_PER_HOUR = 1000;

const TRANSPORTS: readonly string[] = ['outbox', 'cloudflare', 'resend'];
/** 127.0.0.0/8, ::1 and localhost as the URL parser writes a hostname (it normalises IPv4 spellings). */
const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost)$/;

export function readMailSetup(settings: MailSettings): MailSetup {
  const problems: string[] = [];
  const transport = settings.MAIL_TRANSPORT;
  if (!transport) {
    problems.push('MAIL_TRANSPORT is not set: set it to "cloudflare" or "resend" under [vars] in wrangler.toml.');
  } else if (!TRANSPORTS.includes(transport)) {
    problems.push(`MAIL_TRANSPORT is "${transport}": it must be "cloudflare", "resend" or, for local development, "outbox".`);
  }
  if (transport === 'resend' && !settings.RESEND_API_KEY) {
    problems.push('MAIL_TRANSPORT is "resend" but RESEND_API_KEY is not set: add it with `npx wrangler secret put RESEND_API_KEY`.');
  }
  if (transport === 'cloudflare' && !settings.EMAIL) {
    problems.push('MAIL_TRANSPORT is "cloudflare" but there is no send_email binding named EMAIL: add [[send_email]] name = "EMAIL" to wrangler.toml.');
  }
  if ((transport === 'resend' || transport === 'cloudflare') && !settings.MAIL_FROM) {
    problems.push('MAIL_FROM is not set: the sender of sign-in mail, e.g. "Squeeze <login@example.com>", on a domain set up to send.');
  }
  const origin = readOrigin(settings.PUBLIC_ORIGIN, transport === 'outbox', problems);
  const mailsPerHour = settings.MAIL_PER_HOUR === undefined ? DEFAULT_MAILS_PER_HOUR : Number(settings.MAIL_PER_HOUR);
  if (!Number.isSafeInteger(mailsPerHour) || mailsPerHour < 1) {
    problems.push(`MAIL_PER_HOUR is "${settings.MAIL_PER_HOUR}": it must be a whole number of sign-in emails an hour (${DEFAULT_MAILS_PER_HOUR} when unset).`);
  }
  if (problems.length > 0 || !origin) return { ok: false, problems };
  return {
    ok: true,
    transport: transport as MailTransport,
    origin: origin.origin,
    localOutbox: transport === 'outbox' && LOOPBACK_HOST.test(origin.hostname),
    mailsPerHour,
  };
}

/** PUBLIC_ORIGIN as a URL: https, or plain http on loopback or in local mode, where no real mail leaves. */
function readOrigin(value: string | undefined, localMode: boolean, problems: string[]): URL | null {
  const example = 'e.g. https://squeeze.example.com';
  if (!value) {
    problems.push(`PUBLIC_ORIGIN is not set: sign-in links need the origin users open this service at, ${example}.`);
    return null;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.href !== `${url.origin}/` || url.username || url.password) {
    problems.push(`PUBLIC_ORIGIN "${value}" is not an origin: give the scheme and host only, ${example}.`);
    return null;
  }
  if (url.protocol === 'http:' && !localMode && !LOOPBACK_HOST.test(url.hostname)) {
    problems.push(`PUBLIC_ORIGIN "${value}" must be https: a sign-in link over plain http exposes its token (http is for local mode and loopback).`);
    return null;
  }
  return url;
}

/** The address in a sender such as `Squeeze <login@example.com>`. */
export function senderAddress(from: string): string {
  return /<([^<>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}
