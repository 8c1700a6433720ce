// `tilegraph check <dir>`: the golden runner for style authors, through the compiled CLI. Our own
// golden suite runs through it on both backends; an altered expected image fails with a diff. It
// judges the PNG a user receives (our encoder), decoded by libvips: a faulty encoder fails it.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { CpuBackend, toRGBA8, type Raster } from '../../src/index.js';
import { caseWindow, checkCase, compareImages, parseBackends, readCase, summaryTable } from '../../src/hosts/cli/check.js';
import { encodePng } from '../../src/hosts/node/png.js';
import { decodeWithSharp, pixelDifference } from '../helpers/decode.js';
import { gpuTest } from '../gpu/harness.js';
import { fixturesPresent } from '../helpers/fixtures.js';
import { CLI, requireBuild, ROOT } from '../server/fixtures.js';
import { cli, px, readPng, type CliResult } from './helpers.js';

/** The CLI with a longer time limit than cli() (a whole suite on SwiftShader takes minutes). */
function longCli(args: string[], timeoutMs: number): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, TILEGRAPH_BACKEND: '' }, timeout: timeoutMs, maxBuffer: 1 << 24 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const GOLDEN = path.join(ROOT, 'golden');
const allCases = readdirSync(GOLDEN)
  .filter((d) => existsSync(path.join(GOLDEN, d, 'case.json')))
  .sort();
const needsFixtures = (c: string) =>
  (JSON.parse(readFileSync(path.join(GOLDEN, c, 'case.json'), 'utf8')) as { needsFixtures?: boolean }).needsFixtures === true;
/** Without ../shared/fixtures the cases on real third-party data cannot render: left out, loudly (tests/helpers/fixtures.ts). */
const runnable = fixturesPresent ? allCases : allCases.filter((c) => !needsFixtures(c));
const caseArgs = fixturesPresent ? [] : runnable.flatMap((c) => ['--case', c]);

let tmp: string;
beforeAll(() => {
  requireBuild();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-check-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A fresh copy of some golden cases in a temp folder. */
function copyCases(name: string, cases: string[]): string {
  const dir = path.join(tmp, name);
  for (const c of cases) cpSync(path.join(GOLDEN, c), path.join(dir, c), { recursive: true, filter: (f) => !/(actual|diff)[^/]*\.png$/.test(f) });
  return dir;
}

/** Rows of the summary table for one backend: case name -> result column. */
function rows(stdout: string, backend: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const cells = line.trim().split(/\s+/);
    if (cells[1] === backend) out.set(cells[0]!, cells[2]!);
  }
  return out;
}

describe('tilegraph check', () => {
  // On the CPU backend the suite runs through the README's own command (tests/core/readme.test.ts).

  gpuTest(
    'our golden suite passes through it on the GPU backend',
    async () => {
      const r = await longCli(['check', 'golden/', '--backend', 'gpu', ...caseArgs], 880_000);
      expect(r.stderr).not.toMatch(/^(fail|error|missing)/m);
      expect(r.code).toBe(0);
      const gpu = rows(r.stdout, 'gpu');
      // A case may restrict its backends (case.json `backends`).
      const gpuCases = runnable.filter((c) => {
        const b = (JSON.parse(readFileSync(path.join(GOLDEN, c, 'case.json'), 'utf8')) as { backends?: string[] }).backends;
        return !b || b.includes('gpu');
      });
      expect([...gpu.keys()].sort()).toEqual(gpuCases);
      expect(new Set(gpu.values())).toEqual(new Set(['PASS']));
    },
    900_000,
  );

  test('cases may read data outside their own folder (they share fixtures); --no-allow-outside refuses it', async () => {
    // source-geojson-natural-earth reads ../../../shared/fixtures: refused before anything is read.
    const r = await cli(['check', 'golden', '--case', 'source-geojson-natural-earth', '--no-allow-outside']);
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(/source-geojson-natural-earth \[cpu\]: .*is outside the style's directory; allow it with --allow-outside/);
    // The default reads it (with the fixtures present the case passes; the README's check runs them all).
    const d = await cli(['check', 'golden', '--case', 'source-geojson-natural-earth']);
    expect(d.stdout).not.toMatch(/outside the style's directory/);
    if (fixturesPresent) expect(d.code).toBe(0);
  });

  test('an altered expected image fails with actual.png and diff.png; --update accepts the render', async () => {
    const dir = copyCases('altered', ['solid-param', 'blur-shapes', 'geom-buffer']);
    const expectedFile = path.join(dir, 'blur-shapes', 'expected.png');
    const original = readFileSync(expectedFile);
    // Paint a 40x40 white square into the expected image.
    const img = await readPng(original);
    for (let y = 100; y < 140; y++) for (let x = 100; x < 140; x++) img.data.set([255, 255, 255, 255], (y * img.width + x) * 4);
    writeFileSync(
      expectedFile,
      await sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: 4 } })
        .png()
        .toBuffer(),
    );

    const r = await cli(['check', dir]);
    expect(r.code).toBe(6);
    const cpu = rows(r.stdout, 'cpu');
    expect(cpu.get('blur-shapes')).toBe('FAIL');
    expect(cpu.get('solid-param')).toBe('PASS');
    expect(cpu.get('geom-buffer')).toBe('PASS');
    expect(r.stdout).toMatch(/2 passed, 1 failed/);
    expect(r.stdout).toMatch(/blur-shapes \[cpu\]: \d+ pixels .* differ by more than 2\/255/);
    // The diff image marks the altered square red, and the untouched corner is not red.
    const diff = await readPng(readFileSync(path.join(dir, 'blur-shapes', 'diff.png')));
    expect(px(diff, 120, 120)).toEqual([255, 0, 0, 255]);
    expect(px(diff, 5, 5)).not.toEqual([255, 0, 0, 255]);
    // actual.png is the real render: the same pixels as the original expected image.
    const actual = await readPng(readFileSync(path.join(dir, 'blur-shapes', 'actual.png')));
    const orig = await readPng(original);
    expect(compareImages(actual.data, orig.data, actual.width, actual.height).ok).toBe(true);
    expect(existsSync(path.join(dir, 'solid-param', 'diff.png'))).toBe(false);

    const u = await cli(['check', dir, '--update']);
    expect(u.code).toBe(0);
    expect(rows(u.stdout, 'cpu').get('blur-shapes')).toBe('UPDATED');
    expect(rows(u.stdout, 'cpu').get('solid-param')).toBe('PASS');
    expect(existsSync(path.join(dir, 'blur-shapes', 'diff.png'))).toBe(false);
    const again = await cli(['check', dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/3 passed, 0 failed/);
  }, 120_000);

  test('one case folder; a missing expected image; a case that cannot render; usage errors', async () => {
    const dir = copyCases('missing', ['solid-param', 'geom-buffer']);
    rmSync(path.join(dir, 'solid-param', 'expected.png'));
    const one = await cli(['check', path.join(dir, 'solid-param')]);
    expect(one.code).toBe(6);
    expect(rows(one.stdout, 'cpu').get('solid-param')).toBe('MISSING');
    expect(existsSync(path.join(dir, 'solid-param', 'actual.png'))).toBe(true);
    const u = await cli(['check', path.join(dir, 'solid-param'), '--update']);
    expect(u.code).toBe(0);
    expect(existsSync(path.join(dir, 'solid-param', 'expected.png'))).toBe(true);

    writeFileSync(path.join(dir, 'geom-buffer', 'style.json'), JSON.stringify({ output: 'x', nodes: { x: { op: 'blurr' } } }));
    const bad = await cli(['check', dir]);
    expect(bad.code).toBe(6);
    expect(rows(bad.stdout, 'cpu').get('geom-buffer')).toBe('ERROR');
    expect(bad.stdout).toMatch(/geom-buffer \[cpu\]: style error: .*unknown op 'blurr'/);
    expect(rows(bad.stdout, 'cpu').get('solid-param')).toBe('PASS');

    expect((await cli(['check', path.join(dir, 'nope')])).code).toBe(1);
    expect((await cli(['check', dir, '--backend', 'metal'])).code).toBe(1);
  }, 120_000);
});

describe('check: what a user receives, decoded by libvips', () => {
  /** Our encoder, then pixel (0, 0) of the file turned black: one pixel, inside the default tolerance. */
  const losesOnePixel = async (r: Raster) => {
    const px = toRGBA8(r);
    px.set([0, 0, 0, 255], 0);
    return sharp(Buffer.from(px.buffer), { raw: { width: r.width, height: r.height, channels: 4 } })
      .png()
      .toBuffer();
  };
  /** A PNG whose palette is empty (what the old run sentinel wrote for an all-white tile). */
  const emptyPalette = async (r: Raster) => {
    const png = Buffer.from(await encodePng(r));
    // IHDR (8 + 25 bytes) then PLTE: its length field set to 0 leaves a chunk libvips rejects.
    png.writeUInt32BE(0, 33);
    return png;
  };

  test('an encoder that loses one pixel, or writes an unreadable PNG, fails the case even within its tolerance; --update does not accept it', async () => {
    const dir = copyCases('faulty-encoder', ['solid-param', 'encode-white']);
    const backend = new CpuBackend();
    const one = path.join(dir, 'solid-param');
    const fine = await checkCase(one, readCase(one), { backend });
    expect(fine.status).toBe('pass');
    const lost = await checkCase(one, readCase(one), { backend, encode: losesOnePixel, update: true });
    expect(lost.status).toBe('fail');
    expect(lost.message).toMatch(/^the PNG encoder lost 1 pixels: decoded by libvips, \(0, 0\) is 0,0,0,255, rendered /);
    expect(existsSync(path.join(one, 'actual.png'))).toBe(true);
    const white = path.join(dir, 'encode-white');
    const unreadable = await checkCase(white, readCase(white), { backend, encode: emptyPalette });
    expect(unreadable.status).toBe('fail');
    expect(unreadable.message).toMatch(/^the PNG encoder lost 65536 pixels: libvips cannot read it/);
    // The expected images were left alone.
    for (const c of ['solid-param', 'encode-white'])
      expect(Buffer.compare(readFileSync(path.join(dir, c, 'expected.png')), readFileSync(path.join(GOLDEN, c, 'expected.png')))).toBe(0);
  });

  test('--update writes expected.png through libvips from the rendered pixels, not through our encoder', async () => {
    const dir = copyCases('update-libvips', ['encode-256-colours']);
    const c = path.join(dir, 'encode-256-colours');
    rmSync(path.join(c, 'expected.png'));
    const u = await checkCase(c, readCase(c), { backend: new CpuBackend(), update: true });
    expect(u.status).toBe('updated');
    const file = readFileSync(path.join(c, 'expected.png'));
    // libvips keeps the four bands (colour type 6); our encoder would write a 256-entry palette (3).
    expect(file[25]).toBe(6);
    // And it holds the closed form the case was made from (scripts/witness/encoder-goldens.mjs).
    expect(
      pixelDifference(await decodeWithSharp(file), await decodeWithSharp(readFileSync(path.join(GOLDEN, 'encode-256-colours', 'expected.png')))),
    ).toBeUndefined();
  });
});

describe('check: comparison and summary', () => {
  test('premultiplied comparison: colour under zero alpha does not count; tolerance and fraction', () => {
    const a = Uint8Array.from([10, 20, 30, 0, 100, 100, 100, 255]);
    const b = Uint8Array.from([200, 0, 0, 0, 103, 100, 100, 255]);
    const strict = compareImages(a, b, 2, 1, { channel: 2, fraction: 0 });
    expect(strict.badPixels).toBe(1);
    expect(strict.maxDiff).toBeCloseTo(3, 5);
    expect(strict.ok).toBe(false);
    expect(compareImages(a, b, 2, 1, { channel: 3 }).ok).toBe(true);
    expect(compareImages(a, b, 2, 1, { channel: 2, fraction: 0.5 }).ok).toBe(true);
    expect(() => compareImages(a, b.subarray(0, 4), 2, 1)).toThrow(/differ in size/);
  });

  test('a case window: tile or window, tile size, pixel ratio', () => {
    expect(caseWindow({ tile: '2/1/3' })).toEqual({ z: 2, x0: 256, y0: 768, width: 256, height: 256, tileSize: 256 });
    expect(caseWindow({ tile: '2/1/3', tileSize: 512, pixelRatio: 2 })).toEqual({
      z: 2,
      x0: 512,
      y0: 1536,
      width: 512,
      height: 512,
      tileSize: 512,
      pixelRatio: 2,
    });
    expect(caseWindow({ window: { z: 3, x0: 10, y0: 20, width: 30, height: 40 } })).toEqual({ z: 3, x0: 10, y0: 20, width: 30, height: 40, tileSize: 256 });
  });

  test('backends and the table', () => {
    expect(parseBackends(undefined)).toEqual(['cpu']);
    expect(parseBackends('gpu, cpu,gpu')).toEqual(['gpu', 'cpu']);
    expect(() => parseBackends('vulkan')).toThrow(/cpu, gpu/);
    const t = summaryTable([
      { name: 'a', backend: 'cpu', status: 'pass', badPixels: 0, badFraction: 0, maxDiff: 0, ms: 3 },
      { name: 'b', backend: 'gpu', status: 'fail', badPixels: 9, badFraction: 0.01, maxDiff: 40, ms: 5, message: 'see diff' },
    ]);
    expect(t).toMatch(/^case +backend +result/);
    expect(t).toMatch(/b +gpu +FAIL +9 +1\.000% +40\.0/);
    expect(t).toMatch(/b \[gpu\]: see diff/);
    expect(t.trim().split('\n').at(-1)).toBe('1 passed, 1 failed (2 renders)');
  });
});
