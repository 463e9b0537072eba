// Pure helpers of the demo page: numbers and names a person can read. No DOM here.

const EXTENSIONS = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };

/** "photo.jpg" compressed to WebP downloads as "photo.min.webp". */
export function downloadName(original, format) {
  const base = original.replace(/\.[^.]+$/, '') || 'image';
  return `${base}.min.${EXTENSIONS[format] ?? format}`;
}

/** 1 KB = 1024 bytes, as the service counts (5 MB = 5,242,880 bytes). */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "at 14:05 (in 12 minutes)" for a reset time. */
export function describeReset(resetAt, now = new Date()) {
  const when = new Date(resetAt);
  if (Number.isNaN(when.getTime())) return 'later this hour';
  const minutes = Math.max(1, Math.ceil((when.getTime() - now.getTime()) / 60_000));
  const clock = when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `at ${clock} (in ${minutes} minute${minutes === 1 ? '' : 's'})`;
}

/** The sentence shown for an error answer of /v1/demo-compress. */
export function describeError(status, body, file, demoMaxBytes) {
  const code = body?.error;
  if (status === 413 || code === 'file_too_large') {
    return `This file is ${formatBytes(file.size)}; the demo accepts images up to ${formatBytes(demoMaxBytes)}. With an API key you can send up to 10 MB.`;
  }
  if (code === 'image_too_large') return `The image has too many pixels to process. ${body.message ?? ''}`.trim();
  if (status === 429 || code === 'rate_limited') {
    return `You have used this hour's demo requests. The next one is allowed ${describeReset(body?.resetAt)}. Get a free API key for 500 compressions a month.`;
  }
  if (code === 'unsupported_image') return 'This is not a JPEG, PNG, WebP or AVIF image (or a GIF) we can read: damaged, a HEIC (not decoded yet) or another format. Try another file.';
  if (body?.message) return `The service could not compress this file: ${body.message}`;
  return `The service answered with status ${status}. Please try again in a moment.`;
}
