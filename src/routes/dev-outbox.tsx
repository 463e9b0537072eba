import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { readMailSetup } from '../mail/mail-setup';
import { latestOutboxMessage, outboxMessages } from '../mail/outbox';
import { parseIpAddress, unmapIpv4 } from '../net/ip-literal';
import { pageHeaders } from '../middleware/page-headers';
import { OutboxPage } from '../pages/outbox-page';
import { renderPage } from '../pages/layout';

/** Whether `wrangler dev` reports the client as this machine: 127.0.0.0/8 or ::1 (production sets the header itself). */
function isLoopback(header: string | undefined): boolean {
  const parsed = parseIpAddress(header?.trim() ?? '');
  const address = parsed && (unmapIpv4(parsed) ?? parsed);
  if (!address) return false;
  return address.length === 4 ? address[0] === 127 : address.every((byte, i) => byte === (i === 15 ? 1 : 0));
}

/**
 * Local mode's outbox: /dev/outbox lists the messages, /dev/outbox/latest?to=EMAIL gives the newest
 * one for an address as JSON. Anywhere else these paths are the same 404 as any unknown path. Nothing
 * in a request tells the Worker its socket peer (wrangler dev keeps a client-sent CF-Connecting-IP), so
 * the outbox is served only by a server that says it listens on loopback alone: local mode with a
 * loopback PUBLIC_ORIGIN, which `npm start` sets only when it listens on loopback (scripts/wrangler.mjs).
 * The loopback CF-Connecting-IP check below then only stands in for a well-behaved client.
 */
export const devOutboxRoutes = new Hono<AppEnv>()
  .use('/dev/*', async (c, next) => {
    const setup = readMailSetup(c.env);
    if (!setup.ok || !setup.localOutbox || !isLoopback(c.req.header('CF-Connecting-IP'))) throw new ApiError('not_found');
    await next();
  })
  .get('/dev/outbox', pageHeaders(), (c) => renderPage(c, <OutboxPage messages={outboxMessages()} />))
  .get('/dev/outbox/latest', (c) => {
    const to = (c.req.query('to') ?? '').trim().toLowerCase();
    const message = latestOutboxMessage(to);
    if (!message) throw new ApiError('not_found', `The outbox holds no message to ${to || '(no address given)'}.`);
    c.header('Cache-Control', 'no-store');
    return c.json({ to: message.to, subject: message.subject, text: message.text, link: message.link });
  });
