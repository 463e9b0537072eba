// What the upload benches share (bench/upload-memory.mjs, bench/slow-clients.mjs): a large real image the
// engine spends almost nothing on, its multipart body, and a baseline checkout to run beside this one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A 64x64 black RGB PNG with `filler` bytes in a private ancillary chunk (fiLl). */
export function largePng(filler) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(64, 0);
  ihdr.writeUInt32BE(64, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.alloc(64 * (1 + 64 * 3)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('fiLl', Buffer.alloc(filler, 7)), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A multipart body of one file part, `field`. */
export function multipart(bytes, field = 'file') {
  const boundary = '----squeezeUploadMemory';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="large.png"\r\nContent-Type: image/png\r\n\r\n`);
  return { body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

/** A detached worktree of `revision` beside `root`, sharing its node_modules; `remove()` drops it. */
function baselineCheckout(root, revision) {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-baseline-'));
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', dir, revision], { stdio: 'ignore' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    remove: () => execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' }),
  };
}


/**
 * The checkouts a bench compares: the BASELINE revision the environment names (if any), then this one.
 * `remove()` drops the baseline's worktree.
 */
export function benchCheckouts(root) {
  const revision = process.env.BASELINE;
  const baseline = revision ? baselineCheckout(root, revision) : undefined;
  const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const list = [...(baseline ? [{ label: `baseline ${revision}`, dir: baseline.dir }] : []), { label: `this checkout (${head})`, dir: root }];
  return { revision, list, remove: () => baseline?.remove() };
}
