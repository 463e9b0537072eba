import { Hono } from 'hono';
import type { AppEnv } from './env';
import { ApiError } from './errors/api-error';
import { renderError } from './errors/render-error';
import { answerOptions } from './middleware/answer-options';
import { readClock } from './middleware/read-clock';
import { responseHeaders } from './middleware/response-headers';
import { compressRoute } from './routes/compress';
import { demoRoute } from './routes/demo';
import { healthRoute } from './routes/health';
import { usageRoute } from './routes/usage';

export const app = new Hono<AppEnv>()
  .use(responseHeaders())
  .use(readClock())
  .route('/', healthRoute)
  .route('/', compressRoute)
  .route('/', demoRoute)
  .route('/', usageRoute);

app.use(answerOptions(() => app.routes));
app.notFound(() => {
  throw new ApiError('not_found');
});
app.onError(renderError);
