import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '../env';
import type { Session } from '../sessions/sessions';

/**
 * The frame of every page the Worker draws: the static site's look (its stylesheet and header), no
 * inline script or style (the CSP forbids them), and on dashboard pages a sign-out button.
 */

type Section = 'overview' | 'keys' | 'security' | 'plan' | 'signin' | 'signup' | null;

const DASHBOARD_LINKS: [Section, string, string][] = [
  ['overview', '/dashboard', 'Overview'],
  ['keys', '/dashboard/keys', 'Keys'],
  ['security', '/dashboard/security', 'Security'],
  ['plan', '/dashboard/plan', 'Plan'],
];
const SITE_LINKS: [Section, string, string][] = [
  [null, '/', 'Demo'],
  [null, '/getting-started', 'Getting started'],
  [null, '/docs', 'API reference'],
  ['signin', '/signin', 'Sign in'],
];

interface PageProps {
  title: string;
  /** The signed-in session: the dashboard's navigation and a sign-out button; without it, the site's. */
  session?: Session | null;
  current?: Section;
  scripts?: string[];
  children: Child;
}

export function Page({ title, session, current = null, scripts = [], children }: PageProps) {
  const links = session ? DASHBOARD_LINKS : SITE_LINKS;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} — Squeeze`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/site.css" />
        <link rel="stylesheet" href="/assets/dashboard.css" />
        {(session ? scripts : ['/assets/site-nav.js', ...scripts]).map((src) => (
          <script type="module" src={src}></script>
        ))}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <div class="wrap">
            <a class="brand" href={session ? '/dashboard' : '/'}>
              Squeeze
            </a>
            <nav aria-label={session ? 'Dashboard' : 'Site'}>
              <ul>
                {links.map(([section, href, label]) => (
                  <li>
                    <a href={href} aria-current={section !== null && section === current ? 'page' : undefined}>
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            {session && (
              <form class="sign-out" method="post" action="/auth/signout">
                <span class="who">{session.email}</span>
                <button class="button secondary" type="submit">
                  Sign out
                </button>
              </form>
            )}
          </div>
        </header>
        <main id="main" class="wrap">
          {children}
        </main>
        <footer class="site-footer">
          <div class="wrap">
            Squeeze image compression API · <a href="/getting-started">Getting started</a> · <a href="/docs">API reference</a>
          </div>
        </footer>
      </body>
    </html>
  );
}

/** Sends a page with its doctype. */
export function renderPage(c: Context<AppEnv>, page: Child, status: 200 | 400 | 403 | 404 | 410 | 429 | 500 | 503 = 200): Response {
  return c.html(`<!doctype html>${String(page)}`, status);
}
