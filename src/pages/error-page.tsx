import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { ErrorCode } from '../errors/codes';
import { asApiError } from '../errors/render-error';
import { dateTime } from './format';
import { Page, renderPage } from './layout';

const TITLES: Partial<Record<ErrorCode, string>> = {
  bad_request: 'That did not work',
  forbidden: 'Refused: this request came from another site',
  not_found: 'Not found',
  rate_limited: 'Too many requests',
  service_unavailable: 'Not available right now',
};

/**
 * The error handler of dashboard and sign-in routes: the API's errors, same status, code and headers,
 * as a page a person can read.
 */
export function renderErrorPage(err: unknown, c: Context<AppEnv>): Response {
  const error = asApiError(err);
  const resetAt = typeof error.extra.resetAt === 'string' ? error.extra.resetAt : null;
  const response = renderPage(
    c,
    <Page title={TITLES[error.code] ?? 'Something went wrong'} session={c.get('session')}>
      <h1>{TITLES[error.code] ?? 'Something went wrong'}</h1>
      <p class="lead">{error.message}</p>
      {resetAt && <p>You can try again after {dateTime(resetAt)}.</p>}
      <p class="error-code">
        Error code: <code>{error.code}</code>
      </p>
      <p>
        <a href="/dashboard">Dashboard</a> · <a href="/">Home</a>
      </p>
    </Page>,
    error.status as 400,
  );
  for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
  return response;
}
