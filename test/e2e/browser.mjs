// Debian's Chromium driven by playwright-core (playwright's own browser download cannot work offline).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps trying to reach Google on a closed network.
// Playwright gives every launch a fresh, empty --user-data-dir of its own and deletes it on close
// (it refuses one passed in args).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium() {
  // The test's own signal handler closes the browser and then wrangler dev; Playwright's would exit first.
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}
