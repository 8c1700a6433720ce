// dot-density: the count per block of cells against the areal density (chi-square over many
// blocks), seeds reshuffle without changing the density, the lattice is anchored to world pixels
// (two canvases agree on every dot they share), at most one dot per cell, jitter 0, density-expr.
import { dotDensity } from './index.js';
import { group, runOp, sq } from '../../../tests/helpers/geometry.js';
import type { Canvas } from '../../types.js';

const Z = 10,
  T = 256,
  WORLD = T * 2 ** Z;
/** Ground metres per world pixel at world y, Web Mercator on the WGS84 sphere (written out independently). */
const metresPerPixel = (y: number) => {
  const lat = 2 * Math.atan(Math.exp(Math.PI * (1 - (2 * y) / WORLD))) - Math.PI / 2;
  return (Math.cos(lat) * 2 * Math.PI * 6378137) / WORLD;
};
// A canvas around world pixel (140000, 90000) at z10 (about 12° E, 48° N).
const C: Canvas = { z: Z, x0: 140000, y0: 90000, width: 512, height: 512, tileSize: T };
const square = group({ polygons: [[sq(C.x0, C.y0, 512)]], properties: { name: 'sq', pop: 2 } });

async function dots(node: Record<string, unknown>, canvas = C, groups = [square]) {
  const out = await runOp(dotDensity, node, { features: groups }, canvas);
  return out.groups.flatMap((g) => Array.from(g.points));
}

describe('dot-density', () => {
  test('counts per 8x8-cell block match the areal density: chi-square over 1024 blocks, for 4 seeds', async () => {
    const s = 2; // spacing-px: 256 x 256 cells
    const km2 = (y: number) => (metresPerPixel(y) * s) ** 2 / 1e6;
    // 7 units/km², 1 unit per dot: p ~ 0.3 per cell at this latitude (cells of about 200 m).
    const density = 7;
    for (const seed of [0, 1, 2, 99]) {
      const pts = await dots({ density, 'spacing-px': s, seed });
      const counts = new Float64Array(32 * 32);
      for (let i = 0; i < pts.length; i += 2) counts[Math.floor((pts[i + 1]! - C.y0) / 16) * 32 + Math.floor((pts[i]! - C.x0) / 16)]++;
      let chi2 = 0,
        total = 0,
        expectedTotal = 0;
      for (let by = 0; by < 32; by++) {
        // Expected dots per block: the sum of p over its 8 rows of 8 cells (p varies with latitude).
        let e = 0;
        for (let r = 0; r < 8; r++) e += 8 * Math.min(1, density * km2(C.y0 + (by * 8 + r + 0.5) * s));
        for (let bx = 0; bx < 32; bx++) {
          const o = counts[by * 32 + bx]!;
          // Binomial variance: each cell is a Bernoulli draw.
          const p = e / 64;
          chi2 += (o - e) ** 2 / (64 * p * (1 - p));
          total += o;
          expectedTotal += e;
        }
      }
      // 32 x 32 = 1024 degrees of freedom: mean 1024, sd sqrt(2048) = 45; allow 4 sd.
      expect(chi2).toBeLessThan(1024 + 4 * 45);
      expect(chi2).toBeGreaterThan(1024 - 4 * 45);
      expect(Math.abs(total - expectedTotal)).toBeLessThan(4 * Math.sqrt(expectedTotal));
    }
  });

  test('seed reshuffles dots without changing the density', async () => {
    const a = await dots({ density: 7, 'spacing-px': 2, seed: 1 });
    const b = await dots({ density: 7, 'spacing-px': 2, seed: 2 });
    const setA = new Set<string>();
    for (let i = 0; i < a.length; i += 2) setA.add(`${a[i]},${a[i + 1]}`);
    let shared = 0;
    for (let i = 0; i < b.length; i += 2) if (setA.has(`${b[i]},${b[i + 1]}`)) shared++;
    expect(shared).toBe(0); // jittered positions never coincide
    expect(Math.abs(a.length - b.length) / 2).toBeLessThan(4 * Math.sqrt(a.length / 2));
  });

  test('the lattice is anchored to world pixels: two overlapping canvases agree on every dot they share', async () => {
    const shifted: Canvas = { ...C, x0: C.x0 + 100, y0: C.y0 + 37, width: 300, height: 300 };
    const a = await dots({ density: 7, 'spacing-px': 3, seed: 5 });
    const b = await dots({ density: 7, 'spacing-px': 3, seed: 5 }, shifted);
    const inside = (x: number, y: number) => x >= shifted.x0 && x < shifted.x0 + 300 && y >= shifted.y0 && y < shifted.y0 + 300;
    const key = (p: number[]) => {
      const out: string[] = [];
      for (let i = 0; i < p.length; i += 2) if (inside(p[i]!, p[i + 1]!)) out.push(`${p[i]},${p[i + 1]}`);
      return out.sort();
    };
    expect(key(b).length).toBeGreaterThan(1000);
    expect(key(b)).toEqual(key(a));
  });

  test('at most one dot per cell; jitter 0 puts dots at cell centres; saturates at one dot per cell', async () => {
    const pts = await dots({ density: 1e9, 'spacing-px': 4, jitter: 0 });
    expect(pts.length / 2).toBe(128 * 128);
    expect(pts.every((v) => (v / 4) % 1 === 0.5)).toBe(true);
  });

  test('the lattice goes round the world a whole number of times: spacing 3 at z0 (W = 256) is 256 / 85, and the dots continue across the antimeridian', async () => {
    // jitter 0 and saturation: a dot at every cell centre (i + 0.5) 256 / 85.
    const z0: Canvas = { z: 0, x0: 0, y0: 100, width: 256, height: 16, tileSize: 256 };
    const all = await runOp(dotDensity, { density: 1e12, 'spacing-px': 3, jitter: 0 }, { features: [group({ polygons: [[sq(0, 100, 256)]] })] }, z0);
    const xs = [...new Set(all.groups.flatMap((g) => Array.from(g.points).filter((_, i) => i % 2 === 0)))].sort((a, b) => a - b);
    expect(xs).toHaveLength(85);
    xs.forEach((x, i) => expect(x).toBeCloseTo(((i + 0.5) * 256) / 85, 9));
    // At z10 a canvas across x = W (its polygon there too, as a wrapped source gives it) holds the
    // dots of the canvas at x = 0, shifted by W: the same cells, the same draws.
    const across: Canvas = { z: Z, x0: WORLD - 64, y0: 90000, width: 128, height: 128, tileSize: T };
    const west: Canvas = { z: Z, x0: -64, y0: 90000, width: 128, height: 128, tileSize: T };
    const poly = (x0: number) => [group({ polygons: [[sq(x0, 90000, 128)]], properties: { name: 'band' } })];
    const a = await dots({ density: 3, 'spacing-px': 3, seed: 5 }, across, poly(WORLD - 64));
    const b = await dots({ density: 3, 'spacing-px': 3, seed: 5 }, west, poly(-64));
    expect(a.length).toBeGreaterThan(100);
    expect(a.map((v, i) => (i % 2 === 0 ? v - WORLD : v))).toEqual(b.map((v) => expect.closeTo(v, 6)));
  });

  test('dots fall inside the polygon only (not in its hole); dot-value divides the density; density-expr overrides density', async () => {
    const hole = Float64Array.of(C.x0 + 100, C.y0 + 100, C.x0 + 100, C.y0 + 400, C.x0 + 400, C.y0 + 400, C.x0 + 400, C.y0 + 100);
    const holed = group({ polygons: [[sq(C.x0, C.y0, 512), hole]], properties: { pop: 1 } });
    const pts = await dots({ density: 1e9, 'spacing-px': 4 }, C, [holed]);
    let inHole = 0;
    for (let i = 0; i < pts.length; i += 2) if (pts[i]! > C.x0 + 100 && pts[i]! < C.x0 + 400 && pts[i + 1]! > C.y0 + 100 && pts[i + 1]! < C.y0 + 400) inHole++;
    expect(inHole).toBe(0);
    expect(pts.length / 2).toBe(128 * 128 - 75 * 75);
    const many = (await dots({ density: 7, 'spacing-px': 2 })).length;
    const fewer = (await dots({ density: 7, 'dot-value': 4, 'spacing-px': 2 })).length;
    expect(Math.abs(fewer / many - 0.25)).toBeLessThan(0.03);
    const byExpr = (await dots({ density: 0, 'density-expr': ['*', 3.5, ['get', 'pop']], 'spacing-px': 2 })).length;
    expect(Math.abs(byExpr / many - 1)).toBeLessThan(0.05);
  });

  test('no density, lines and points give nothing; too many cells is an error', async () => {
    expect(await dots({})).toEqual([]);
    expect(await dots({ density: 10 }, C, [group({ lines: [Float64Array.of(C.x0, C.y0, C.x0 + 50, C.y0)], points: Float64Array.of(C.x0, C.y0) })])).toEqual([]);
    await expect(dots({ density: 10, 'spacing-px': 0.1 })).rejects.toThrow(/lattice cells/);
  });
});
