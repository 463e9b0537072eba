import { MAX_UPLOAD_BYTES, precheckImage, readBlob, readBytes, tooLargeError, type ReadAt } from './precheck.js';
import type { SqueezeError } from './errors.js';
import { concat } from './read-body.js';
import type { CompressOptionsOfApi, ImageFormat } from './types.js';

/** What can be compressed: bytes, a Blob or File, a stream of bytes, or an image at a public https URL. */
export type CompressInput = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | URL | { url: string | URL };

/** The body of one compress request, made anew for each attempt. */
export interface RequestSource {
  /** The input's format by its magic bytes; unknown for a URL. */
  format?: ImageFormat;
  /** The body and its headers for the next attempt. */
  body(): { body: BodyInit; contentType?: string; duplex?: 'half' };
  /** Whether a failed attempt can be sent again (a stream cannot, once it was read from). */
  resendable(): boolean;
  /** An error found while sending, that explains a failed fetch better than fetch's own (a stream too large). */
  failure?: SqueezeError;
}

/** The first bytes of a stream are read ahead for the pre-checks; the rest is streamed as it comes. */
const STREAM_HEAD_BYTES = 64 * 1024;

/** The options as multipart text fields: numbers as decimals, `preserve` as the comma-separated list the API reads. */
function optionFields(options: CompressOptionsOfApi): [string, string][] {
  return (['quality', 'format', 'maxWidth', 'maxHeight', 'width', 'height', 'fit', 'gravity', 'background', 'preserve'] as const)
    .filter((name) => options[name] !== undefined)
    .map((name) => [name, String(options[name])]);
}

function blobSource(blob: Blob, format: ImageFormat, options: CompressOptionsOfApi): RequestSource {
  const name = typeof File !== 'undefined' && blob instanceof File && blob.name ? blob.name : 'image';
  return {
    format,
    body() {
      const form = new FormData();
      form.append('file', blob, name);
      for (const [field, value] of optionFields(options)) form.append(field, value);
      return { body: form };
    },
    resendable: () => true,
  };
}

function urlSource(url: string, options: CompressOptionsOfApi): RequestSource {
  const json = JSON.stringify({ url, ...options });
  return { body: () => ({ body: json, contentType: 'application/json' }), resendable: () => true };
}

/** Reads from `reader` until `size` bytes are in hand or the stream ends. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, size: number): Promise<{ chunks: Uint8Array[]; done: boolean }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < size) {
    const { value, done } = await reader.read();
    if (done) return { chunks, done: true };
    chunks.push(value);
    length += value.length;
  }
  return { chunks, done: false };
}

/**
 * A stream is uploaded as it is read, in a multipart body written here (FormData only takes Blobs), and
 * counted on the way: past the size limit the upload is cut and the call fails with `file_too_large`.
 * It can be sent once; after a failure that began reading it, the error is thrown.
 */
async function streamSource(stream: ReadableStream<Uint8Array>, options: CompressOptionsOfApi): Promise<RequestSource> {
  const reader = stream.getReader();
  const head = await readHead(reader, STREAM_HEAD_BYTES);
  const headBytes = concat(head.chunks);
  if (head.done) return blobSource(new Blob([headBytes]), await precheckImage(readBytes(headBytes), headBytes.length), options);
  const read: ReadAt = readBytes(headBytes);
  const format = await precheckImage(read, undefined);

  const boundary = `squeeze-${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  const preamble = encoder.encode(
    optionFields(options)
      .map(([field, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const epilogue = encoder.encode(`\r\n--${boundary}--\r\n`);
  let started = false;
  let sent = headBytes.length;
  const source: RequestSource = {
    format,
    resendable: () => !started,
    body() {
      started = true;
      let stage: 'head' | 'rest' | 'end' = 'head';
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (stage === 'head') {
            controller.enqueue(preamble);
            controller.enqueue(headBytes);
            stage = 'rest';
            return;
          }
          const { value, done } = await reader.read();
          if (done) {
            controller.enqueue(epilogue);
            controller.close();
            return;
          }
          sent += value.length;
          if (sent > MAX_UPLOAD_BYTES) {
            source.failure = tooLargeError(sent);
            await reader.cancel();
            controller.error(source.failure);
            return;
          }
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { body, contentType: `multipart/form-data; boundary=${boundary}`, duplex: 'half' };
    },
  };
  return source;
}

/** Checks the input locally (format, size, animation) and makes the request body for it. */
export async function prepareSource(input: CompressInput, options: CompressOptionsOfApi): Promise<RequestSource> {
  if (input instanceof URL) return urlSource(input.href, options);
  if (input instanceof ReadableStream) return streamSource(input, options);
  if (input instanceof Blob) return blobSource(input, await precheckImage(readBlob(input), input.size), options);
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    // Blob copies the bytes, whatever buffer they sit in.
    return blobSource(new Blob([bytes as Uint8Array<ArrayBuffer>]), await precheckImage(readBytes(bytes), bytes.length), options);
  }
  if (input && typeof input === 'object' && 'url' in input) return urlSource(String(input.url), options);
  throw new TypeError('compress() takes bytes (Uint8Array, ArrayBuffer), a Blob or File, a ReadableStream, a URL or { url }.');
}
