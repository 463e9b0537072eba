// Browser test of the newcomer's path against `wrangler dev` in local mode: from "/" to a key, through the
// emailed link (read from the outbox), a compression with that key, the dashboard showing it, revoking
// the key and its 401; then every dashboard page on a phone. Screenshots of each page at desktop and phone
// widths go to test-results/dashboard-*.png. Run with `npm run test:e2e:dashboard` (needs /usr/bin/chromium:
// scripts/install-chromium.sh).
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runInBrowser, watchForProblems } from './browser.mjs';
import { assert, test } from './harness.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const artifacts = `${root}test-results/`;
const photo = `${root}test/fixtures/api/chelsea.png`;
const WAIT = { timeout: 60_000 };
const DESKTOP = { viewport: { width: 1100, height: 900 } };
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** Script errors and CSP violations: they fail the run. */
const problems = [];

async function newPage(options) {
  const context = await browser.newContext(options);
  return watchForProblems(await context.newPage(), problems);
}

async function shoot(page, name, width) {
  await page.screenshot({ path: `${artifacts}dashboard-${name}-${width}.png`, fullPage: true });
}

/** The newest mail to `email` in the outbox, read as a script on this machine would (loopback). */
async function latestMail(email) {
  const response = await fetch(`${dev.url}/dev/outbox/latest?to=${encodeURIComponent(email)}`);
  assert(response.status === 200, `outbox: ${response.status}`);
  return response.json();
}

/** A curl-like upload of the test photo with a key. */
function compress(key) {
  const body = new FormData();
  body.append('file', new Blob([photoBytes], { type: 'image/png' }), 'chelsea.png');
  return fetch(`${dev.url}/v1/compress`, { method: 'POST', headers: { 'X-API-Key': key }, body });
}

/** Signs in through the sign-in page and the emailed link; `newName` for an address with no account yet (the confirm page asks it). */
async function signInAs(page, email, newName) {
  await page.goto(`${dev.url}/signin`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.waitForURL('**/auth/sent');
  await page.goto((await latestMail(email)).link);
  if (newName === undefined) {
    await page.getByRole('button', { name: 'Sign in to Squeeze' }).click();
  } else {
    await page.getByLabel('Your name').fill(newName);
    await page.getByRole('button', { name: 'Create my account' }).click();
  }
  await page.waitForURL('**/dashboard');
}

/**
 * Nothing wider than the phone's screen. Measured against the width asked for, not window.innerWidth: an
 * emulated phone widens its layout viewport to fit what overflows, and innerWidth grows with it.
 */
async function noSidewaysScroll(page, what) {
  const [overflow, culprits] = await page.evaluate((width) => {
    const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 0.5 && !el.closest('.table-scroll, pre'));
    return [document.documentElement.scrollWidth - width, wide.slice(0, 3).map((el) => `${el.tagName.toLowerCase()}.${el.className}`)];
  }, PHONE.viewport.width);
  assert(overflow <= 0, `${what} is ${overflow} px wider than the screen: ${culprits.join(', ')}`);
}

const email = `newcomer-${Date.now()}@example.com`;
let dev;
let browser;
let photoBytes;
let page;
let key;
let usedLink;
let started;

test('from "/" the "Get a key" link leads to sign-up; the header has a sign-in link', async () => {
  page = await newPage(DESKTOP);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dev.url });
  started = Date.now();
  await page.goto(dev.url);
  assert((await page.locator('header nav').getByRole('link', { name: 'Sign in' }).getAttribute('href')) === '/signin', 'no sign-in link in the header');
  await shoot(page, 'home', 'desktop');
  await page.getByRole('link', { name: 'Get a key' }).first().click();
  await page.waitForURL('**/signup');
  await shoot(page, 'signup', 'desktop');
});

test('sign-up sends a link (printed by the dev server, kept in the outbox); the page says to check email', async () => {
  await page.getByLabel('Your name').fill('Ada Newcomer');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.waitForURL('**/auth/sent');
  assert((await page.locator('h1').textContent()) === 'Check your email', 'not the sent page');
  await shoot(page, 'sent', 'desktop');
  const mail = await latestMail(email);
  assert(mail.to === email && mail.link.startsWith(`${dev.url}/auth/confirm?token=`), JSON.stringify(mail));
  usedLink = mail.link;
  const printed = () => dev.output.join('').includes(mail.link);
  // Printed by wrangler dev as the mail leaves: wait for it (the test's timeout bounds the wait).
  while (!printed()) await new Promise((r) => setTimeout(r, 100));
});

test('the link opens a confirm page with the name given at sign-up; its button creates the account and lands on an empty dashboard', async () => {
  await page.goto(usedLink);
  // The browser that signed up offers its name; the link itself carries none.
  assert((await page.getByLabel('Your name').inputValue()) === 'Ada Newcomer', 'the name is not prefilled');
  await shoot(page, 'confirm', 'desktop');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await page.waitForURL('**/dashboard');
  const text = await page.locator('main').innerText();
  assert(text.includes('Hello, Ada Newcomer') && text.includes('0 of 500 compressions') && text.includes('You have no API key yet'), text);
  const cookie = (await page.context().cookies()).find((c) => c.name === '__Host-session');
  assert(cookie?.httpOnly && cookie.secure && cookie.sameSite === 'Lax', JSON.stringify(cookie));
  await shoot(page, 'empty', 'desktop');
});

test('create the first key: shown once, with a copy button that copies it', async () => {
  await page.getByLabel('Name your first key').fill('my website');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('#new-key').waitFor(WAIT);
  key = await page.locator('#new-key').inputValue();
  assert(/^sqz_[A-Za-z0-9_-]{32}$/.test(key), `key ${key}`);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.locator('.copy-status').filter({ hasText: 'Copied' }).waitFor(WAIT);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert(copied === key, 'the clipboard does not hold the key');
  await shoot(page, 'new-key', 'desktop');
});

test('the new key\'s page came after a redirect: a reload shows no key and makes no second one', async () => {
  assert(page.url() === `${dev.url}/dashboard/keys/new`, page.url());
  await page.reload();
  const text = await page.locator('main').innerText();
  assert(text.includes('This key was shown once') && !text.includes(key), text);
  await page.goto(`${dev.url}/dashboard/keys`);
  assert((await page.locator('main').innerText()).includes('1 of 10 keys in use'), 'a reload made another key');
});

test('the key compresses an image with a curl-like request, in under a minute from "/"', async () => {
  const response = await compress(key);
  await response.arrayBuffer();
  assert(response.status === 200, `compress: ${response.status}`);
  const seconds = (Date.now() - started) / 1000;
  console.log(`    from "/" to a compressed image: ${seconds.toFixed(1)} s`);
  assert(seconds < 60, `${seconds} s`);
});

test('the dashboard shows the compression: the month, the chart, the key', async () => {
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.waitForURL('**/dashboard');
  const text = await page.locator('main').innerText();
  assert(text.includes('1 of 500 compressions'), text);
  const today = await page.locator('rect.bar').last().locator('title').textContent();
  assert(today.endsWith(': 1 compressions'), today);
  assert(text.includes('my website'), 'the key is not at a glance');
  await page.locator('details summary').click();
  await shoot(page, 'overview', 'desktop');
});

test('revoke the key from the keys page; the next request with it is 401', async () => {
  await page.getByRole('link', { name: 'Keys', exact: true }).click();
  await page.waitForURL('**/dashboard/keys');
  await shoot(page, 'keys', 'desktop');
  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: 'Revoke' }).click();
  await page.getByText(/Revoked \d+ \w{3} \d{4}/).waitFor(WAIT);
  await shoot(page, 'keys-revoked', 'desktop');
  const response = await compress(key);
  const body = await response.json();
  assert(response.status === 401 && body.error === 'unauthorized', JSON.stringify(body));
});

test('signed in, the site\'s header links to the dashboard, and /signin leads there instead of its form', async () => {
  for (const path of ['/', '/getting-started', '/docs']) {
    await page.goto(dev.url + path);
    const nav = page.locator('header nav');
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor(WAIT);
    assert((await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('href')) === '/dashboard', `${path}: header link`);
    assert((await nav.getByRole('link', { name: 'Sign in' }).count()) === 0, `${path} still says Sign in`);
  }
  await page.goto(`${dev.url}/signin`);
  await page.waitForURL('**/dashboard');
});

test('the security and plan pages', async () => {
  await page.getByRole('link', { name: 'Security' }).click();
  await page.waitForURL('**/dashboard/security');
  const text = await page.locator('main').innerText();
  for (const needle of ['This browser', 'Key created', 'Key revoked', 'Signed in', 'Account created']) assert(text.includes(needle), `security page lacks ${needle}`);
  await shoot(page, 'security', 'desktop');
  await page.getByRole('link', { name: 'Plan', exact: true }).click();
  await page.waitForURL('**/dashboard/plan');
  assert((await page.locator('main').innerText()).includes('You are on the Free plan'), 'plan page');
  await shoot(page, 'plan', 'desktop');
});

test('sign out ends the session; the dashboard then asks to sign in; the used link offers a new one', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${dev.url}/`);
  assert((await page.locator('header nav').getByRole('link', { name: 'Sign in' }).getAttribute('href')) === '/signin', 'signed out, the header does not say Sign in');
  await page.goto(`${dev.url}/dashboard`);
  await page.waitForURL('**/signin');
  await shoot(page, 'signin', 'desktop');
  await page.goto(usedLink);
  assert((await page.locator('h1').textContent()) === 'This link no longer works', 'used link');
  await shoot(page, 'link-used', 'desktop');
});

test('phone, 375 px: every page of the path fits the screen', async () => {
  const phone = await newPage(PHONE);
  await phone.goto(dev.url);
  await shoot(phone, 'home', 'phone');
  await phone.getByRole('link', { name: 'Get a key' }).first().click();
  await phone.waitForURL('**/signup');
  await noSidewaysScroll(phone, '/signup');
  await shoot(phone, 'signup', 'phone');
  const phoneEmail = `phone-${Date.now()}@example.com`;
  await phone.getByLabel('Your name').fill('Pat Phone');
  await phone.getByLabel('Email address').fill(phoneEmail);
  await phone.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await phone.waitForURL('**/auth/sent');
  await shoot(phone, 'sent', 'phone');
  await phone.goto((await latestMail(phoneEmail)).link);
  await shoot(phone, 'confirm', 'phone');
  await phone.getByRole('button', { name: 'Create my account' }).click();
  await phone.waitForURL('**/dashboard');
  await noSidewaysScroll(phone, 'the empty dashboard');
  await shoot(phone, 'empty', 'phone');
  await phone.getByLabel('Name your first key').fill('phone key');
  await phone.getByRole('button', { name: 'Create key' }).click();
  await phone.locator('#new-key').waitFor(WAIT);
  await noSidewaysScroll(phone, 'the new key page');
  await shoot(phone, 'new-key', 'phone');
  const phoneKey = await phone.locator('#new-key').inputValue();
  await (await compress(phoneKey)).arrayBuffer();
  for (const [path, name] of [
    ['/dashboard', 'overview'],
    ['/dashboard/keys', 'keys'],
    ['/dashboard/security', 'security'],
    ['/dashboard/plan', 'plan'],
  ]) {
    await phone.goto(dev.url + path);
    await noSidewaysScroll(phone, path);
    await shoot(phone, name, 'phone');
  }
  await phone.getByRole('button', { name: 'Sign out' }).click();
  await phone.waitForURL(`${dev.url}/`);
  await phone.goto(`${dev.url}/signin`);
  await shoot(phone, 'signin', 'phone');
  await phone.context().close();
});

test('nobody can lock the owner out: after 30 requests for their address and its +tag spellings from 30 networks, they still sign in', async () => {
  const [local, domain] = email.split('@');
  let network = 0;
  for (const target of [...Array(15).fill(email), ...Array.from({ length: 15 }, (_, i) => `${local}+${i}@${domain}`)]) {
    const attack = await fetch(`${dev.url}/signin`, {
      method: 'POST',
      redirect: 'manual',
      // wrangler dev keeps a client-sent CF-Connecting-IP: each request comes from a network of its own.
      headers: { 'CF-Connecting-IP': `198.18.${++network}.7` },
      body: new URLSearchParams({ email: target }),
    });
    assert(attack.status === 303, `attack ${network}: ${attack.status}`);
  }
  const owner = await newPage(DESKTOP);
  await signInAs(owner, email);
  assert((await owner.locator('main').innerText()).includes('Hello, Ada Newcomer'), 'not signed in');
  await owner.context().close();
});

test('a second sign-in through /signin reaches the same account', async () => {
  const again = await newPage(DESKTOP);
  await signInAs(again, email);
  assert((await again.locator('main').innerText()).includes('Hello, Ada Newcomer'), 'another account');
  await again.context().close();
});

/**
 * The keys table as laid out: each row's cells start at the row's top (desktop) or sit inside its card
 * (phone), and every control and status is on screen, not clipped by the table's own scroll box.
 */
async function keysTableProblems(page, width) {
  return page.evaluate((width) => {
    const problems = [];
    const scroller = document.querySelector('.table-scroll');
    if (scroller.scrollWidth > scroller.clientWidth + 1) problems.push(`the table scrolls sideways by ${scroller.scrollWidth - scroller.clientWidth} px`);
    const box = scroller.getBoundingClientRect();
    for (const row of document.querySelectorAll('table.keys-table tbody tr')) {
      const r = row.getBoundingClientRect();
      const name = row.querySelector('th').textContent.slice(0, 12);
      const cells = [...row.children].map((cell) => cell.getBoundingClientRect());
      if (width > 700 && cells.some((c) => Math.abs(c.top - r.top) > 1 || Math.abs(c.bottom - r.bottom) > 1)) {
        problems.push(`${name}: cells span ${cells.map((c) => `${Math.round(c.top - r.top)}..${Math.round(c.bottom - r.top)}`).join(', ')} px of a ${Math.round(r.height)} px row`);
      }
      if (cells.some((c) => c.top < r.top - 1 || c.bottom > r.bottom + 1)) problems.push(`${name}: a cell sticks out of its row`);
      for (const control of row.querySelectorAll('select, button, .status')) {
        const c = control.getBoundingClientRect();
        if (c.width === 0 || c.left < Math.max(0, box.left) - 1 || c.right > Math.min(width, box.right) + 1) {
          problems.push(`${name}: ${control.tagName.toLowerCase()} "${control.textContent.trim()}" is off screen (${Math.round(c.left)}..${Math.round(c.right)} of ${width})`);
        }
      }
    }
    return problems;
  }, width);
}

test('keys table at 1366 and 390 px: actions in their rows, a 50-character name wraps, every control on screen', async () => {
  const tableEmail = `table-${Date.now()}@example.com`;
  for (const [label, options] of [
    ['1366', { viewport: { width: 1366, height: 900 } }],
    ['390', { ...PHONE, viewport: { width: 390, height: 844 } }],
  ]) {
    const p = await newPage(options);
    await signInAs(p, tableEmail, label === '1366' ? 'Table Tester' : undefined);
    if (label === '1366') {
      for (const name of ['w'.repeat(50), 'my website']) {
        await p.goto(`${dev.url}/dashboard/keys`);
        await p.getByLabel('Name').fill(name);
        await p.getByRole('button', { name: 'Create key' }).click();
        await p.waitForURL('**/dashboard/keys/new');
      }
      // A rolled key keeps 24 hours with only its Revoke button: a row where the actions are not the tallest cell.
      await p.goto(`${dev.url}/dashboard/keys`);
      p.once('dialog', (dialog) => dialog.accept());
      await p.getByRole('row', { name: /^w{50}/ }).getByRole('button', { name: 'Roll' }).click();
      await p.waitForURL('**/dashboard/keys/new');
    }
    await p.goto(`${dev.url}/dashboard/keys`);
    await shoot(p, 'keys-table', label);
    const found = await keysTableProblems(p, options.viewport.width);
    assert(found.length === 0, `${label} px: ${found.join('; ')}`);
    await p.context().close();
  }
});

test('no script errors or Content-Security-Policy violations on any page', async () => {
  assert(problems.length === 0, problems.join('\n'));
});

await mkdir(artifacts, { recursive: true });
photoBytes = await readFile(photo);
await runInBrowser(
  (started) => ({ dev, browser } = started),
  () => page?.screenshot({ path: `${artifacts}dashboard-failure.png`, fullPage: true }),
);
