import type { MailMessage } from './message';

/**
 * Local mode's mail: kept in this isolate's memory (the newest 100) and printed to the terminal of
 * `npm start`, never sent. A reload of the dev server empties it; the terminal keeps the links.
 * Read through /dev/outbox, which only answers in local mode and to loopback clients.
 */
const KEPT = 100;
const messages: MailMessage[] = [];

export function putInOutbox(message: MailMessage): void {
  messages.push(message);
  if (messages.length > KEPT) messages.shift();
  console.log(`[outbox] ${message.subject} for ${message.to}: ${message.link}`);
}

/** Newest first. */
export function outboxMessages(): MailMessage[] {
  return [...messages].reverse();
}

export function latestOutboxMessage(to: string): MailMessage | undefined {
  return messages.findLast((m) => m.to === to);
}
