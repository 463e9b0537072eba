import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { clearSignedInHint, readSession } from '../sessions/sessions';

/** Dashboard routes: a live session, or a redirect to sign in (clearing the site header's hint). */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async function requireSessionMiddleware(c, next) {
    const session = await readSession(c);
    if (!session) {
      clearSignedInHint(c);
      return c.redirect('/signin', 303);
    }
    c.set('session', session);
    await next();
  };
}
