import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApi, image, pngBytes, TEST_KEY } from '../../client/test/fake-api';
import { Reporter } from '../src/report';
import { Captured, squeeze, tree } from './run';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The status lines drawn: what follows each "clear the line" sequence, less the lines printed for good (up to a newline). */
const statusLines = (text: string) =>
  text
    .split('\r\x1b[2K')
    .slice(1)
    .map((s) => s.slice(s.lastIndexOf('\n') + 1))
    .filter(Boolean);

describe('progress', () => {
  it('on a terminal: one status line, redrawn in place and cut to the width', () => {
    const out = new Captured(true, 30);
    const reporter = new Reporter(out, {});
    reporter.status(`[1/9] ${'very-long-folder-name/'.repeat(5)}photo.png`);
    reporter.line('✓ a.png');
    reporter.end();
    const lines = statusLines(out.text);
    expect(lines[0]).toHaveLength(29);
    expect(lines[0]).toMatch(/^\[1\/9\] very-long.*…$/);
    expect(out.text).toContain('✓ a.png\n');
    expect(out.text.endsWith('\r\x1b[2K')).toBe(true);
  });

  it.each([
    ['piped', false, {}],
    ['in CI', true, { CI: 'true' }],
    ['on TERM=dumb', true, { TERM: 'dumb' }],
  ])('%s: plain lines only', (_name, tty, env) => {
    const out = new Captured(tty, 80);
    const reporter = new Reporter(out, env);
    reporter.status('[1/2] a.png');
    reporter.line('✓ a.png');
    reporter.end();
    expect(out.text).toBe('✓ a.png\n');
  });

  it('a run on a terminal shows [done/total], the bytes saved and the current file, within the width', async () => {
    const api = await FakeApi.start(image({ bytes: pngBytes() }));
    try {
      dir = await tree({ 'a.png': pngBytes({ padding: 500 }), 'deep/folder/with/a/long/name/b.png': pngBytes({ padding: 900 }) });
      const stderr = new Captured(true, 40);
      const run = await squeeze(['.', '-c', '1'], { cwd: dir, env: { SQUEEZE_API_KEY: TEST_KEY, SQUEEZE_BASE_URL: api.url }, stderr });
      expect(run.code).toBe(0);
      const lines = statusLines(stderr.text);
      expect(lines.some((l) => /^\[1\/2\] \d+ B saved · a\.png$/.test(l))).toBe(true);
      for (const line of lines) expect([...line].length).toBeLessThan(40);
      expect(lines).toContain('[1/2] 677 B saved · deep/folder/with/a…');
      expect(stderr.text).toMatch(/2 compressed: 1\.5 KB → 122 B, saved 1\.4 KB \(92%\)\.\n$/);
    } finally {
      await api.close();
    }
  });
});
