// The live demo: files are sent one at a time to POST /v1/demo-compress, each getting its own card.
import { pendingCard, showError, showResult, showWorking } from './card.js';
import { describeError } from './format.js';

/** The demo's size limit (the server enforces it too); checked here so a too-large file costs no request. */
const DEMO_MAX_BYTES = 5 * 1024 * 1024;

const input = document.getElementById('files');
const dropzone = document.getElementById('dropzone');
const results = document.getElementById('results');
const quota = document.getElementById('quota');

const queue = [];
let running = false;
/** After a 429 nothing more can succeed until this time; files are not sent in vain. */
let blockedUntil = null;

function showRemaining(headers) {
  const left = headers.get('X-Demo-Remaining');
  if (left === null) return;
  quota.innerHTML = '';
  quota.append('Demo requests left this hour: ', Object.assign(document.createElement('strong'), { textContent: left }));
}

/** A 1x1 AVIF (the service's own output): the browser can show AVIF if it decodes this. */
const TINY_AVIF = 'AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAOZtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAABAAAAHmlsb2MAAAAARAAAAQABAAAAAQAAAQoAAAAdAAAAI2lpbmYAAAAAAAEAAAAVaW5mZQIAAAAAAQAAYXYwMQAAAABqaXBycAAAAEtpcGNvAAAAFGlzcGUAAAAAAAAAAQAAAAEAAAAMYXYxQ4EADAAAAAAQcGl4aQAAAAADCAgIAAAAE2NvbHJuY2x4AAEADQAGgAAAABdpcG1hAAAAAAAAAAEAAQQBggMEAAAAJW1kYXQKCBgABggIaDQgMhEXwAkkkkQAALATVO0wzL5BgA==';

/** Whether this browser decodes AVIF, asked once. */
const showsAvif = createImageBitmap(new Blob([Uint8Array.from(atob(TINY_AVIF), (c) => c.charCodeAt(0))], { type: 'image/avif' })).then(
  () => true,
  () => false,
);

async function compress(file) {
  const body = new FormData();
  body.append('image', file, file.name);
  // Listing image/webp (every browser shows it) and image/avif (when this one does) lets format auto answer
  // with whichever is smallest.
  const accept = (await showsAvif) ? 'image/avif,image/webp,image/*;q=0.8' : 'image/webp,image/*;q=0.8';
  const response = await fetch('/v1/demo-compress', { method: 'POST', body, headers: { Accept: accept } });
  showRemaining(response.headers);
  if (!response.ok) {
    const error = await response.json().catch(() => null);
    return { ok: false, status: response.status, error };
  }
  const header = (name) => Number(response.headers.get(name));
  return {
    ok: true,
    blob: await response.blob(),
    originalSize: header('X-Original-Size'),
    compressedSize: header('X-Compressed-Size'),
    savingsPercent: header('X-Savings-Percent'),
    format: response.headers.get('X-Output-Format') ?? 'image',
  };
}

async function handle({ file, card }) {
  if (file.size > DEMO_MAX_BYTES) return showError(card, describeError(413, null, file, DEMO_MAX_BYTES));
  // A PDF or a text file cannot be an image: say so without spending a demo request. Anything the
  // browser calls an image (or cannot name) goes to the server, which decides from the bytes.
  if (file.type && !file.type.startsWith('image/')) return showError(card, describeError(400, { error: 'unsupported_image' }, file, DEMO_MAX_BYTES));
  if (blockedUntil && Date.now() < blockedUntil.time) return showError(card, blockedUntil.message);
  showWorking(card);
  try {
    const result = await compress(file);
    if (result.ok) return showResult(card, file, result);
    const message = describeError(result.status, result.error, file, DEMO_MAX_BYTES);
    if (result.status === 429) blockedUntil = { time: Date.parse(result.error?.resetAt) || Date.now() + 60_000, message };
    showError(card, message);
  } catch {
    showError(card, 'Could not reach the service. Check your connection and try again.');
  }
}

async function drain() {
  if (running) return;
  running = true;
  while (queue.length) await handle(queue.shift());
  running = false;
}

function enqueue(files) {
  for (const file of files) {
    const card = pendingCard(file);
    results.append(card);
    queue.push({ file, card });
  }
  drain();
}

// Chromium opens a focused file input on Space only; Enter is what most people try first.
input.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  input.click();
});

input.addEventListener('change', () => {
  enqueue([...input.files]);
  input.value = '';
});

for (const type of ['dragenter', 'dragover']) {
  dropzone.addEventListener(type, (event) => {
    event.preventDefault();
    dropzone.classList.add('is-dragging');
  });
}
for (const type of ['dragleave', 'drop']) dropzone.addEventListener(type, () => dropzone.classList.remove('is-dragging'));
dropzone.addEventListener('drop', (event) => {
  event.preventDefault();
  enqueue([...event.dataTransfer.files]);
});
