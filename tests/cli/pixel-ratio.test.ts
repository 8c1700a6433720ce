// --pixel-ratio on `tile`, `bbox` and `tiles` (MapLibre's @2x from the command line): the same area
// in ratio times the pixels, equal to the style with its pixel sizes written ratio times larger.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ratioStyle as style } from '../helpers/pixel-ratio.js';
import { requireBuild } from '../server/fixtures.js';
import { cli, readPng, type Image } from './helpers.js';

const maxDiff = (a: Image, b: Image) => {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let m = 0;
  for (let i = 0; i < a.data.length; i++) m = Math.max(m, Math.abs(a.data[i]! - b.data[i]!));
  return m;
};

let dir: string;
let base: string;
let doubled: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-ratio-'));
  base = path.join(dir, 'base.json');
  doubled = path.join(dir, 'doubled.json');
  writeFileSync(base, JSON.stringify(style(1)));
  writeFileSync(doubled, JSON.stringify(style(2)));
});

const png = async (file: string) => readPng(readFileSync(file));

test('tile --pixel-ratio 2 is the 512 px tile of the style with doubled pixel sizes, not the plain 512 px tile', async () => {
  const [a, b, c] = await Promise.all([
    cli(['tile', '--style', base, '--tile', '1/0/0', '--pixel-ratio', '2', '--out', path.join(dir, 'at2.png')]),
    cli(['tile', '--style', doubled, '--tile', '1/0/0', '--tile-size', '512', '--out', path.join(dir, 'ref.png')]),
    cli(['tile', '--style', base, '--tile', '1/0/0', '--tile-size', '512', '--out', path.join(dir, 'plain.png')]),
  ]);
  expect([a.code, b.code, c.code]).toEqual([0, 0, 0]);
  expect(a.stdout).toContain('(tile 1/0/0, 512x512 at pixel ratio 2)');
  const at2 = await png(path.join(dir, 'at2.png'));
  expect(maxDiff(at2, await png(path.join(dir, 'ref.png')))).toBeLessThanOrEqual(1);
  expect(maxDiff(at2, await png(path.join(dir, 'plain.png')))).toBeGreaterThan(40);
});

test('bbox --pixel-ratio 3 renders three times the pixels of the box; --max-pixels counts them', async () => {
  const box = '--bbox=-30,-20,40,25';
  const [one, three, refused] = await Promise.all([
    cli(['bbox', '--style', base, box, '--zoom', '2', '--out', path.join(dir, 'b1.png')]),
    cli(['bbox', '--style', base, box, '--zoom', '2', '--pixel-ratio', '3', '--out', path.join(dir, 'b3.png')]),
    cli(['bbox', '--style', base, box, '--zoom', '2', '--pixel-ratio', '3', '--max-pixels', '100000', '--out', path.join(dir, 'bx.png')]),
  ]);
  expect([one.code, three.code]).toEqual([0, 0]);
  const [p1, p3] = await Promise.all([png(path.join(dir, 'b1.png')), png(path.join(dir, 'b3.png'))]);
  // The box's world-pixel window at 3x the world width: within a pixel of 3x the 1x window (rounding outwards).
  expect(Math.abs(p3.width - 3 * p1.width)).toBeLessThanOrEqual(3);
  expect(Math.abs(p3.height - 3 * p1.height)).toBeLessThanOrEqual(3);
  expect(three.stdout).toContain('at zoom 2 and pixel ratio 3');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/above --max-pixels 100000/);
});

test('tiles --pixel-ratio 2 writes 512 px tiles; --resume at another ratio is refused; a bad ratio is a usage error', async () => {
  const out = path.join(dir, 'pyramid');
  const common = ['tiles', '--style', base, '--min-zoom', '0', '--max-zoom', '1', '--out', out, '--concurrency', '1', '--progress', 'none'];
  const r = await cli([...common, '--pixel-ratio', '2']);
  expect(r.code).toBe(0);
  const t = await png(path.join(out, '1', '0', '0.png'));
  expect([t.width, t.height]).toEqual([512, 512]);
  const tile = await cli(['tile', '--style', base, '--tile', '1/0/0', '--pixel-ratio', '2', '--out', path.join(dir, 't.png')]);
  expect(tile.code).toBe(0);
  expect(maxDiff(t, await png(path.join(dir, 't.png')))).toBe(0);
  const again = await cli([...common, '--resume']);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/cannot resume .*different job/);
  const bad = await Promise.all(
    ['0', '5', '1.5', 'two'].map((v) => cli(['tile', '--style', base, '--tile', '0/0/0', '--pixel-ratio', v, '--out', path.join(dir, 'x.png')])),
  );
  for (const [i, v] of ['0', '5', '1.5', 'two'].entries()) {
    expect(bad[i]!.code).toBe(1);
    expect(bad[i]!.stderr).toContain(`--pixel-ratio '${v}' is not an integer from 1 to 4`);
  }
});
