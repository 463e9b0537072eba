import type { CompressionNote } from '../image/pipeline';
import type { ByteClaim } from '../limits/admission';
import { BODY_CHUNK_BYTES } from '../limits/sizes';
import type { AnswerFormat } from '../image/types';
import { MIME_TYPES } from '../image/types';

export interface ImageResponseParts {
  bytes: Uint8Array;
  format: AnswerFormat;
  notes: CompressionNote[];
  originalSize: number;
  /** Format auto: the output may depend on Accept, so caches must key on it. */
  varyOnAccept: boolean;
  headers?: Record<string, string>;
  /** The request's claim on the isolate's bytes, which the answer keeps until it is sent (answerBody). */
  claim: ByteClaim;
}

/**
 * round(100 * (original - compressed) / original), halves away from zero (decisions.md: 2.5 -> 3,
 * -2.5 -> -3; Math.round alone gives -2); negative when the output grew.
 */
export function savingsPercent(original: number, compressed: number): number {
  if (original === 0) return 0;
  const percent = (100 * (original - compressed)) / original;
  const rounded = Math.round(Math.abs(percent));
  return percent < 0 && rounded > 0 ? -rounded : rounded;
}

/**
 * The answer's bytes as its body, counted in the request's claim until they are sent: from now the claim
 * holds them alone (the input is no longer needed), and it is given back once the runtime has taken the
 * last piece, or when the client leaves (the stream is cancelled). So answers their clients have not read
 * stay inside the isolate's budget: 100 unread answers of 660 KB cannot hold 66 MiB outside it (issue 35).
 * Each piece handed over is a copy, so the runtime never keeps the whole answer alive through a view.
 */
export function answerBody(bytes: Uint8Array, claim: ByteClaim): ReadableStream<Uint8Array> {
  claim.keep(bytes.length);
  let rest: Uint8Array | undefined = bytes;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (rest?.length) controller.enqueue(rest.slice(0, BODY_CHUNK_BYTES));
        rest = rest?.subarray(BODY_CHUNK_BYTES);
        if (rest?.length) return;
        rest = undefined;
        claim.release();
        controller.close();
      },
      cancel() {
        rest = undefined;
        claim.release();
      },
      // workerd's extension: a stream of known length goes out with its Content-Length, not chunked.
      expectedLength: bytes.length,
    },
    // Nothing is taken before the runtime asks for it.
    { highWaterMark: 0 },
  );
}

/** A 200 with the compressed image and the size headers of the contract. */
export function imageResponse(parts: ImageResponseParts): Response {
  const headers = new Headers({
    'Content-Type': MIME_TYPES[parts.format],
    'Content-Length': String(parts.bytes.length),
    'X-Original-Size': String(parts.originalSize),
    'X-Compressed-Size': String(parts.bytes.length),
    'X-Savings-Percent': String(savingsPercent(parts.originalSize, parts.bytes.length)),
    'X-Output-Format': parts.format,
    ...parts.headers,
  });
  if (parts.varyOnAccept) headers.set('Vary', 'Accept');
  if (parts.notes.length) headers.set('X-Compression-Notes', parts.notes.join(', '));
  return new Response(answerBody(parts.bytes, parts.claim), { status: 200, headers });
}
