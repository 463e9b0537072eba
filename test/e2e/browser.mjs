// Debian's Chromium driven by playwright-core (playwright's own browser download cannot work offline).
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startWranglerDev, stopAllWranglerDev } from '../../scripts/dev-server.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps trying to reach Google on a closed network.
// Playwright gives every launch a fresh, empty --user-data-dir of its own and deletes it on close
// (it refuses one passed in args).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium() {
  // The test's own signal handler closes the browser and then wrangler dev; Playwright's would exit first.
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}

/**
 * Records a page's script errors and CSP violations in `problems`; an expected 4xx logs "Failed to load
 * resource", which is not one.
 */
export function watchForProblems(page, problems) {
  page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`${page.url()}: ${msg.text()}`);
  });
  return page;
}

/**
 * Gives the file's tests a fresh `wrangler dev` and a headless Chromium, handed to `ready` before the first
 * test; stops both however the run ends (Ctrl-C and CI timeouts included: they would outlive us); calls
 * `onFailure` (a screenshot of what went wrong) at the first failed test.
 */
export function runInBrowser(ready, onFailure) {
  let browser;
  let cleaning;
  // Once only, even when a signal and the normal end race; a browser that is already gone is fine.
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await browser?.close().catch(() => {});
      await stopAllWranglerDev();
    })());
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => cleanUp().finally(() => process.exit(130)));

  let shot = false;
  beforeAll(async () => {
    const dev = await startWranglerDev();
    browser = await launchChromium();
    await ready({ dev, browser });
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || shot) return;
    shot = true;
    await onFailure?.().catch(() => {});
  });
  afterAll(cleanUp);
}
