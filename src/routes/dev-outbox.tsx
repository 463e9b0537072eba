import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
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
 * one for an address as JSON. Only in local mode (MAIL_TRANSPORT=outbox) and only for loopback
 * clients; anywhere else these paths are the same 404 as any unknown path.
 */
export const devOutboxRoutes = new Hono<AppEnv>()
  .use('/dev/*', async (c, next) => {
    if (c.env.MAIL_TRANSPORT !== 'outbox' || !isLoopback(c.req.header('CF-Connecting-IP'))) throw new ApiError('not_found');
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
