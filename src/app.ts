import { Hono } from 'hono';
import type { AppEnv } from './env';
import { ApiError } from './errors/api-error';
import { renderError } from './errors/render-error';
import { drainBody } from './input/drain-body';
import { answerOptions } from './middleware/answer-options';
import { pageHeaders } from './middleware/page-headers';
import { readClock } from './middleware/read-clock';
import { refuseCrossSitePosts } from './middleware/refuse-cross-site';
import { requireSession } from './middleware/require-session';
import { responseHeaders } from './middleware/response-headers';
import { runToEnd } from './middleware/run-to-end';
import { serverTiming } from './middleware/server-timing';
import { renderErrorPage } from './pages/error-page';
import { compressRoute } from './routes/compress';
import { dashboardRoutes } from './routes/dashboard';
import { demoRoute } from './routes/demo';
import { devOutboxRoutes } from './routes/dev-outbox';
import { healthRoute } from './routes/health';
import { operatorRoutes } from './routes/operator';
import { signInRoutes } from './routes/sign-in';
import { usageRoute } from './routes/usage';

export const app = new Hono<AppEnv>().use(runToEnd()).use(responseHeaders()).use(readClock());

// Every API answer says where its time went, errors included.
for (const path of ['/v1/*', '/health']) app.use(path, serverTiming());

// Pages the Worker draws (the rest of the site is static): their headers, errors as pages, and no
// cross-site POST; the dashboard's behind a session.
for (const path of ['/signup', '/signin', '/auth/*', '/dashboard/*']) app.use(path, pageHeaders(), refuseCrossSitePosts());
app.use('/dashboard/*', requireSession());

app
  .route('/', healthRoute)
  .route('/', compressRoute)
  .route('/', demoRoute)
  .route('/', usageRoute)
  .route('/', signInRoutes)
  .route('/', dashboardRoutes)
  .route('/', devOutboxRoutes)
  .route('/', operatorRoutes);

app.use(answerOptions(() => app.routes));
app.notFound(() => {
  throw new ApiError('not_found');
});
app.onError(async (err, c) => {
  await drainBody(c.req.raw, err instanceof ApiError ? err.status : 500);
  return c.get('htmlErrors') ? renderErrorPage(err, c) : renderError(err, c);
});
