// One result card per file: a pending state, then either the before/after view or an error message.
import { downloadName, formatBytes } from './format.js';

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

export function pendingCard(file) {
  const status = element('p', { className: 'status', textContent: 'Waiting…' });
  const card = element('li', { className: 'card' }, element('h3', { textContent: file.name }), status);
  card.setAttribute('aria-busy', 'true');
  return card;
}

export function showWorking(card) {
  card.querySelector('.status').textContent = 'Compressing…';
}

export function showError(card, message) {
  card.removeAttribute('aria-busy');
  card.classList.add('is-error');
  card.querySelector('.status').textContent = message;
}

let sliderCount = 0;

/** A slider over the two images: left of the line is the original, right is the compressed one. */
function comparison(beforeUrl, afterUrl, name) {
  const view = element(
    'div',
    { className: 'compare' },
    element('img', { src: beforeUrl, alt: `${name}, original` }),
    element('img', { className: 'after', src: afterUrl, alt: `${name}, compressed` }),
    element('span', { className: 'divider' }),
    element('span', { className: 'tag before', textContent: 'Before' }),
    element('span', { className: 'tag after-tag', textContent: 'After' }),
  );
  const id = `slider-${++sliderCount}`;
  const slider = element('input', { className: 'slider', type: 'range', min: 0, max: 100, value: 50, id });
  slider.setAttribute('aria-valuetext', 'half original, half compressed');
  slider.addEventListener('input', () => {
    view.style.setProperty('--split', `${slider.value}%`);
    slider.setAttribute('aria-valuetext', `${slider.value}% original, ${100 - slider.value}% compressed`);
  });
  const label = element('label', { className: 'visually-hidden', htmlFor: id, textContent: `Compare original and compressed ${name}` });
  return element('div', { className: 'viewer' }, view, label, slider);
}

function stat(term, value, className = '') {
  return element('div', { className }, element('dt', { textContent: term }), element('dd', { textContent: value }));
}

export function showResult(card, file, result) {
  const { blob, originalSize, compressedSize, savingsPercent, format } = result;
  const afterUrl = URL.createObjectURL(blob);
  const name = downloadName(file.name, format);
  const savedText = savingsPercent > 0 ? `${savingsPercent}% smaller` : 'Already as small as it gets';
  card.removeAttribute('aria-busy');
  card.querySelector('.status').textContent =
    savingsPercent > 0
      ? `Done: ${formatBytes(originalSize)} → ${formatBytes(compressedSize)}, ${savingsPercent}% smaller.`
      : 'Done: this image was already well compressed, so it comes back with only its metadata removed.';
  const stats = element(
    'dl',
    { className: 'stats' },
    stat('Original', formatBytes(originalSize)),
    stat('Compressed', formatBytes(compressedSize)),
    stat('Savings', savedText, 'savings'),
    stat('Format', format.toUpperCase()),
  );
  const download = element('a', { className: 'button', href: afterUrl, download: name, textContent: `Download ${name}` });
  const details = element('div', { className: 'details' }, stats, download);
  card.append(element('div', { className: 'result' }, comparison(URL.createObjectURL(file), afterUrl, file.name), details));
}
