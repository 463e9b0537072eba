// Browser test of the static site against `wrangler dev`: the demo (upload, result, download,
// unsupported file, rate limit), keyboard and phone use, the API reference and the getting-started page.
// Run with `npm run test:e2e` (needs /usr/bin/chromium: scripts/install-chromium.sh). Screenshots go
// to test-results/.
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { runInBrowser, watchForProblems } from './browser.mjs';
import { assert, test } from './harness.mjs';
import { decodeInPage, formatOf } from './image-check.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const artifacts = `${root}test-results/`;
const photo = `${root}test/fixtures/api/chelsea.png`;
const PHOTO_SIZE = { width: 451, height: 300 };
const WAIT = { timeout: 60_000 };

/**
 * A client address of its own for each run and each browser context, so the demo limit starts at 5. This
 * works only because `wrangler dev` passes a client-sent CF-Connecting-IP through; Cloudflare's edge overwrites it.
 */
const freshIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** Script errors and CSP violations: they fail the run. */
const problems = [];

async function newPage(browser, options = {}) {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  await context.setExtraHTTPHeaders({ 'CF-Connecting-IP': freshIp() });
  return watchForProblems(await context.newPage(), problems);
}

const cards = (page) => page.locator('#results .card');

/** Drag and drop as the page sees it: dragenter, dragover and drop events carrying a File. */
async function dropFile(page, selector, bytes, name) {
  const transfer = await page.evaluateHandle(
    ([base64, fileName]) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], fileName, { type: 'image/png' }));
      return dt;
    },
    [bytes.toString('base64'), name],
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await page.dispatchEvent(selector, type, { dataTransfer: transfer });
}

let dev;
let browser;
let page;

test('pages and the OpenAPI document are static assets with cache headers', async () => {
  for (const path of ['/', '/docs', '/getting-started', '/openapi.json', '/assets/demo.js', '/assets/docs.js', '/assets/site.css']) {
    const response = await fetch(dev.url + path);
    assert(response.status === 200, `${path}: status ${response.status}`);
    // Only the asset layer adds this header (public/_headers); a Worker response would not have it.
    assert(/max-age=\d+/.test(response.headers.get('Cache-Control') ?? ''), `${path}: Cache-Control ${response.headers.get('Cache-Control')}`);
  }
});

test('/openapi.json is valid OpenAPI 3.1 and is the committed file', async () => {
  const served = await (await fetch(`${dev.url}/openapi.json`)).json();
  const committed = JSON.parse(await readFile(`${root}public/openapi.json`, 'utf8'));
  assert(JSON.stringify(served) === JSON.stringify(committed), 'served document differs from public/openapi.json');
  const api = await SwaggerParser.validate(structuredClone(served));
  assert(api.openapi === '3.1.0', `openapi ${api.openapi}`);
});

test('demo: uploading a photo shows the savings and the compressed image', async () => {
  page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  await page.goto(dev.url);
  await page.setInputFiles('#files', photo);
  const card = cards(page).first();
  await card.locator('.stats').waitFor(WAIT);
  const savings = await card.locator('.savings dd').textContent();
  assert(/^\d+% smaller$/.test(savings), `savings: ${savings}`);
  const after = card.locator('img.after');
  const width = await after.evaluate(async (img) => (await img.decode(), img.naturalWidth));
  assert(width === PHOTO_SIZE.width, `after image width ${width}`);
  const quota = await page.locator('#quota').textContent();
  assert(quota.includes('left this hour: 4'), `quota: ${quota}`);
});

test('demo: the download is a valid image with a sensible name', async () => {
  const link = cards(page).first().getByRole('link', { name: /^Download / });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const name = download.suggestedFilename();
  const format = (await cards(page).first().locator('.stats div:nth-child(4) dd').textContent()).toLowerCase();
  assert(name === `chelsea.min.${format === 'jpeg' ? 'jpg' : format}`, `file name ${name} for format ${format}`);
  const bytes = await readFile(await download.path());
  assert(formatOf(bytes) === format, `signature says ${formatOf(bytes)}, page says ${format}`);
  const size = await decodeInPage(page, bytes);
  assert(size.width === PHOTO_SIZE.width && size.height === PHOTO_SIZE.height, `decoded ${JSON.stringify(size)}`);
});

test('demo: a file that is not an image gets a clear message', async () => {
  await page.setInputFiles('#files', { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not a picture') });
  const card = cards(page).nth(1);
  await card.locator('.status').filter({ hasText: 'not a JPEG, PNG, WebP or AVIF image' }).waitFor(WAIT);
  assert(await card.evaluate((el) => el.classList.contains('is-error')), 'card not marked as an error');
});

test('a body refused before its end is answered, not reset: four 4 MB JSON bodies that are not objects, each a JSON 400', async () => {
  // Answered at the first byte while the client is still sending: the Worker reads the rest, keeping none, so the
  // answer arrives (before, workerd reset the connection and wrangler's proxy made it a 500 "Network connection lost").
  const body = Buffer.from(`[${'0,'.repeat(2_000_000)}0]`);
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${dev.url}/v1/demo-compress`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': freshIp() }, body });
    const answer = await response.text();
    assert(response.status === 400, `request ${i}: ${response.status} ${answer.slice(0, 120)}`);
    assert(JSON.parse(answer).error === 'bad_request', `request ${i}: ${answer}`);
  }
});

test('demo: the sixth request of the hour shows when the limit resets', async () => {
  const photoBytes = await readFile(photo);
  const files = [1, 2, 3, 4].map((n) => ({ name: `cat-${n}.png`, mimeType: 'image/png', buffer: photoBytes }));
  await page.setInputFiles('#files', files);
  const last = cards(page).nth(5);
  await last.locator('.status').filter({ hasText: 'The next one is allowed at' }).waitFor(WAIT);
  const message = await last.locator('.status').textContent();
  assert(/allowed at .+\(in \d+ minutes?\)/.test(message), `message: ${message}`);
  assert((await cards(page).nth(4).locator('.stats').count()) === 1, 'the fifth request should have succeeded');
  const quota = await page.locator('#quota').textContent();
  assert(quota.includes('left this hour: 0'), `quota: ${quota}`);
  await page.screenshot({ path: `${artifacts}site-demo.png`, fullPage: true });
});

test('keyboard: Tab and Enter open the file picker, and the arrows move the comparison slider', async () => {
  const fresh = await newPage(browser);
  // Listening before the page loads: Playwright turns on file-chooser interception asynchronously.
  const chooserOpened = fresh.waitForEvent('filechooser', WAIT);
  chooserOpened.catch(() => {}); // awaited below; a failure before that must not crash the run
  await fresh.goto(dev.url);
  let focused = null;
  for (let i = 0; i < 10 && focused !== 'files'; i++) {
    await fresh.keyboard.press('Tab');
    focused = await fresh.evaluate(() => document.activeElement?.id);
  }
  assert(focused === 'files', 'Tab never reached the file input');
  const outline = await fresh.locator('#dropzone').evaluate((el) => getComputedStyle(el).outlineStyle);
  assert(outline === 'solid', `the drop zone shows no focus (outline ${outline})`);
  await fresh.keyboard.press('Enter');
  const chooser = await chooserOpened;
  assert(chooser.isMultiple(), 'the file picker should take several files');
  await chooser.setFiles(photo);
  await cards(fresh).first().locator('.stats').waitFor(WAIT);
  await fresh.context().close();

  const slider = cards(page).first().locator('input[type=range]');
  await slider.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  const split = await cards(page).first().locator('.compare').evaluate((el) => el.style.getPropertyValue('--split'));
  assert(split === '55%', `slider split ${split}`);
  assert((await slider.getAttribute('aria-valuetext')).startsWith('55% original'), 'slider value not announced');
});

test('phone: 375 px wide, nothing scrolls sideways, and a dropped file gives a result that fits', async () => {
  const phone = await newPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  for (const path of ['/docs', '/getting-started', '/']) {
    await phone.goto(dev.url + path);
    if (path === '/docs') await phone.locator('#compress').waitFor(WAIT);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `${path} is ${overflow} px wider than the screen`);
  }
  await dropFile(phone, '#dropzone', await readFile(photo), 'chelsea.png');
  await cards(phone).first().locator('.stats').waitFor(WAIT);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the result is ${overflow} px wider than the screen`);
  await phone.screenshot({ path: `${artifacts}site-phone.png`, fullPage: true });
  await phone.context().close();
});

test('API reference lists every operation, error code and the three kinds of input', async () => {
  const docs = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  await docs.goto(`${dev.url}/docs`);
  await docs.locator('#compress').waitFor(WAIT);
  const text = await docs.locator('#reference').innerText();
  const spec = JSON.parse(await readFile(`${root}public/openapi.json`, 'utf8'));
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of Object.keys(item)) assert(text.includes(`${method.toUpperCase()}\n${path}`) || text.includes(`${method.toUpperCase()} ${path}`), `missing ${method} ${path}`);
  }
  for (const { code } of spec['x-error-codes']) assert(text.includes(code), `missing error code ${code}`);
  for (const needle of ['-F file=@photo.jpg', 'base64 < ', '"url": "https://example.com/photo.jpg"', 'X-Demo-Remaining', 'maxWidth']) {
    assert(text.includes(needle), `missing ${needle}`);
  }
  await docs.screenshot({ path: `${artifacts}site-docs.png`, fullPage: true });
  await docs.context().close();
});

test('getting started explains keys, a first request, limits and format auto', async () => {
  const guide = await newPage(browser);
  await guide.goto(`${dev.url}/getting-started`);
  const text = await guide.locator('main').innerText();
  for (const needle of ['Sign up', 'Create key', '/v1/compress', 'quota', 'Accept', '/v1/usage', '@squeeze-edge/client', 'squeeze check']) assert(text.includes(needle), `missing ${needle}`);
  await guide.context().close();
});

test('no script errors or Content-Security-Policy violations on any page', async () => {
  assert(problems.length === 0, problems.join('\n'));
});

await mkdir(artifacts, { recursive: true });
await runInBrowser(
  (started) => ({ dev, browser } = started),
  // What the demo page looked like when something went wrong.
  () => page?.screenshot({ path: `${artifacts}site-failure.png`, fullPage: true }),
);
