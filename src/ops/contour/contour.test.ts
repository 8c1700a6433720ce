// contour: vertex positions against exact linear interpolation on known fields, chaining,
// saddles, equal-to-level samples, and the level rules of spec §2.5.
import { Contourer, fieldRange, intervalLevels, linksAreClean, normalizeLevels } from '../../geometry/contour.js';
import { contour } from './index.js';
import type { OpContext } from '../types.js';
import type { Canvas, Features, ScalarField, ScalarValue } from '../../types.js';

/** A field sampled at the pixel centres of a canvas from a function of world pixel coordinates. */
function fieldOf(canvas: Canvas, f: (x: number, y: number) => number): ScalarField {
  const data = new Float32Array(canvas.width * canvas.height);
  for (let j = 0; j < canvas.height; j++) for (let i = 0; i < canvas.width; i++) data[j * canvas.width + i] = f(canvas.x0 + i + 0.5, canvas.y0 + j + 0.5);
  return { kind: 'scalar-field', width: canvas.width, height: canvas.height, data };
}

/**
 * A minimal OpContext. `fieldCanvas` is where the field's samples sit; as in a render, the node's
 * own canvas is that grown by minus the op's pad (the input reaches `pad` px beyond it).
 */
function ctxFor(node: Record<string, unknown>, field: ScalarField, fieldCanvas: Canvas, params: Record<string, number> = {}): OpContext {
  const spec: Record<string, unknown> = { op: 'contour', field: '@f', ...node };
  const pad = contour.pad!(() => undefined, 'field', spec as OpContext['node']);
  const canvas = {
    ...fieldCanvas,
    x0: fieldCanvas.x0 + pad,
    y0: fieldCanvas.y0 + pad,
    width: fieldCanvas.width - 2 * pad,
    height: fieldCanvas.height - 2 * pad,
  };
  const resolve = (v: unknown): ScalarValue => (typeof v === 'string' && v.startsWith('$') ? params[v.slice(1)]! : (v as number));
  return {
    id: 'c',
    node: spec as OpContext['node'],
    canvas,
    window: canvas,
    zoom: canvas.z,
    input: (() => field) as OpContext['input'],
    handle: () => field,
    has: (f) => spec[f] !== undefined,
    num(f) {
      const v = spec[f];
      if (v === undefined) return (contour.fields[f] as { default: number }).default;
      return resolve(v) as number;
    },
    nums: () => undefined,
    color: () => [0, 0, 0, 1],
    bool: () => false,
    resolve,
    bound: () => 0,
    expr: () => undefined,
    sources: undefined as never,
  };
}

function run(node: Record<string, unknown>, field: ScalarField, canvas: Canvas, params?: Record<string, number>): Features {
  return contour.cpu!(ctxFor(node, field, canvas, params)) as Features;
}

const C: Canvas = { z: 8, x0: 51200, y0: 30720, width: 40, height: 30, tileSize: 256 };

const vertices = (line: Float64Array) => Array.from({ length: line.length / 2 }, (_, k) => [line[2 * k]!, line[2 * k + 1]!] as const);

/** Shoelace area with y down: positive for a ring that winds clockwise on screen. */
function screenArea(ring: Float64Array): number {
  let a = 0;
  for (let k = 0; k + 3 < ring.length; k += 2) a += ring[k]! * ring[k + 3]! - ring[k + 2]! * ring[k + 1]!;
  return a / 2;
}

/** Each vertex lies on a grid edge between two samples, at the linear interpolation of the level. */
function expectOnInterpolation(line: Float64Array, field: ScalarField, canvas: Canvas, level: number) {
  for (const [x, y] of vertices(line)) {
    const u = x - canvas.x0 - 0.5;
    const w = y - canvas.y0 - 0.5;
    const onRow = Number.isInteger(w);
    expect(onRow || Number.isInteger(u)).toBe(true);
    const i = onRow ? Math.floor(u) : u;
    const j = onRow ? w : Math.floor(w);
    const t = onRow ? u - i : w - j;
    const va = field.data[j * field.width + i]!;
    const vb = onRow ? field.data[j * field.width + i + 1]! : field.data[(j + 1) * field.width + i]!;
    expect(t).toBeGreaterThanOrEqual(0);
    expect(t).toBeLessThanOrEqual(1);
    expect(va >= level).not.toBe(vb >= level);
    expect(va + t * (vb - va)).toBeCloseTo(level, 9);
  }
}

describe('contour positions', () => {
  test('plane z = x: the level-L line is the vertical x = L, one open polyline per level', () => {
    const field = fieldOf(C, (x) => x - C.x0);
    const out = run({ interval: 10 }, field, C);
    expect(out.groups.map((g) => g.properties.level)).toEqual([10, 20, 30]);
    for (const g of out.groups) {
      const L = g.properties.level as number;
      expect(g.lines).toHaveLength(1);
      expect(Array.from(g.cutEnds!)).toEqual([3]);
      const v = vertices(g.lines[0]!);
      for (const [x] of v) expect(x).toBe(C.x0 + L);
      // It spans the sampled rows, and runs north: higher values (east) on its right.
      expect(v[0]![1]).toBe(C.y0 + C.height - 0.5);
      expect(v[v.length - 1]![1]).toBe(C.y0 + 0.5);
      expect(g.polygons).toEqual([]);
      expect(g.points.length).toBe(0);
    }
  });

  test('tilted plane z = x + 2y: every vertex satisfies x + 2y = L exactly', () => {
    const field = fieldOf(C, (x, y) => x - C.x0 + 2 * (y - C.y0));
    const out = run({ interval: 7, base: 3 }, field, C);
    expect(out.groups.length).toBeGreaterThan(5);
    for (const g of out.groups) {
      const L = g.properties.level as number;
      expect((L - 3) % 7).toBe(0);
      expect(g.lines).toHaveLength(1);
      for (const [x, y] of vertices(g.lines[0]!)) expect(x - C.x0 + 2 * (y - C.y0)).toBeCloseTo(L, 9);
      expectOnInterpolation(g.lines[0]!, field, C, L);
    }
  });

  test('cone: one closed clockwise ring per level, vertices at the interpolated radius', () => {
    const cx = C.x0 + 19.3;
    const cy = C.y0 + 14.6;
    const field = fieldOf(C, (x, y) => 20 - Math.hypot(x - cx, y - cy));
    const out = run({ levels: [8, 12, 16] }, field, C);
    expect(out.groups.map((g) => g.properties.level)).toEqual([8, 12, 16]);
    for (const g of out.groups) {
      const L = g.properties.level as number;
      expect(g.lines).toHaveLength(1);
      expect(Array.from(g.cutEnds!)).toEqual([0]);
      const ring = g.lines[0]!;
      expect([ring[0], ring[1]]).toEqual([ring[ring.length - 2], ring[ring.length - 1]]);
      expectOnInterpolation(ring, field, C, L);
      // Interpolating a cone along grid edges stays within a few hundredths of a pixel of the circle.
      for (const [x, y] of vertices(ring)) expect(Math.abs(Math.hypot(x - cx, y - cy) - (20 - L))).toBeLessThan(0.05);
      expect(screenArea(ring)).toBeGreaterThan(0);
      expect(screenArea(ring)).toBeCloseTo(Math.PI * (20 - L) ** 2, -0.5);
    }
  });

  test('a pit winds counter-clockwise (higher values stay on the right)', () => {
    const cx = C.x0 + 20;
    const cy = C.y0 + 15;
    const out = run(
      { levels: [5] },
      fieldOf(C, (x, y) => Math.hypot(x - cx, y - cy)),
      C,
    );
    expect(out.groups[0]!.lines).toHaveLength(1);
    expect(screenArea(out.groups[0]!.lines[0]!)).toBeLessThan(0);
  });

  test('two peaks give two rings on one level; a ring clipped by the canvas becomes an open line', () => {
    const peak = (x: number, y: number, px: number, py: number) => Math.max(0, 10 - Math.hypot(x - px, y - py));
    const two = fieldOf(C, (x, y) => peak(x, y, C.x0 + 10, C.y0 + 15) + peak(x, y, C.x0 + 30, C.y0 + 15));
    const g = run({ levels: [5] }, two, C).groups[0]!;
    expect(g.lines).toHaveLength(2);
    expect(Array.from(g.cutEnds!)).toEqual([0, 0]);
    const edge = fieldOf(C, (x, y) => peak(x, y, C.x0 + 2, C.y0 + 15));
    const e = run({ levels: [5] }, edge, C).groups[0]!;
    expect(e.lines).toHaveLength(1);
    expect(Array.from(e.cutEnds!)).toEqual([3]);
    const v = vertices(e.lines[0]!);
    expect(v[0]![0]).toBe(C.x0 + 0.5);
    expect(v[v.length - 1]![0]).toBe(C.x0 + 0.5);
  });
});

describe('saddles', () => {
  const S: Canvas = { z: 0, x0: 100, y0: 200, width: 2, height: 2, tileSize: 256 };
  const field = (tl: number, tr: number, bl: number, br: number): ScalarField => ({
    kind: 'scalar-field',
    width: 2,
    height: 2,
    data: new Float32Array([tl, tr, bl, br]),
  });
  const segments = (out: Features) => out.groups[0]!.lines.map((l) => Array.from(l));
  const expectSegments = (out: Features, want: number[][]) => {
    const got = segments(out);
    expect(got.map((l) => l.length)).toEqual(want.map((l) => l.length));
    got.forEach((l, n) => l.forEach((v, k) => expect(v).toBeCloseTo(want[n]![k]!, 6)));
  };
  // Edge midpoints of the one cell at level 0.5 with corners 1 / 0: top, right, bottom, left.
  const T = [101, 200.5];
  const R = [101.5, 201];
  const B = [101, 201.5];
  const L = [100.5, 201];

  test('centre average inside the level: the inside corners join (outside corners cut off)', () => {
    // tl = br = 1, tr = bl = 0, centre 0.5 >= 0.5.
    expect(segments(run({ levels: [0.5] }, field(1, 0, 0, 1), S))).toEqual([
      [...T, ...R],
      [...B, ...L],
    ]);
  });

  test('centre average outside the level: the inside corners stay apart (each cut off)', () => {
    // tl = 1, br = 0.625, centre 0.40625 < 0.5: lines around tl and around br.
    expectSegments(run({ levels: [0.5] }, field(1, 0, 0, 0.625), S), [
      [...T, ...L],
      [100.5 + 0.5 / 0.625, 201.5, 101.5, 200.5 + 0.5 / 0.625],
    ]);
    // The same cell at level 0.4: centre 0.40625 >= 0.4, the insides join around tr and bl.
    expectSegments(run({ levels: [0.4] }, field(1, 0, 0, 0.625), S), [
      [100.5 + 0.6, 200.5, 101.5, 200.5 + 0.4 / 0.625],
      [100.5 + 0.4 / 0.625, 201.5, 100.5, 200.5 + 0.6],
    ]);
  });

  test('the other diagonal (tr = bl = 1)', () => {
    expect(segments(run({ levels: [0.5] }, field(0, 1, 1, 0), S))).toEqual([
      [...R, ...B],
      [...L, ...T],
    ]);
    // br = -0.2: centre 0.45 < 0.5, lines around tr and around bl; crossings at t = 0.5 / 1.2 from the 1s.
    const t = 0.5 / 1.2;
    expectSegments(run({ levels: [0.5] }, field(0, 1, 1, -0.2), S), [
      [101.5, 200.5 + t, ...T],
      [...L, 100.5 + t, 201.5],
    ]);
  });
});

describe('samples exactly on a level', () => {
  test('a column equal to the level counts as inside: the line runs through those samples, no repeated vertex', () => {
    const field = fieldOf(C, (x) => x - C.x0); // column i holds i + 0.5
    const g = run({ levels: [10.5] }, field, C).groups[0]!;
    expect(g.lines).toHaveLength(1);
    const v = vertices(g.lines[0]!);
    expect(v).toHaveLength(C.height);
    for (const [x] of v) expect(x).toBe(C.x0 + 10.5);
  });

  test('adjacent canvases trace the same vertices where they overlap, with many exact hits', () => {
    // An integer-valued world field: many samples equal the level.
    const f = (x: number, y: number) => ((Math.floor(x) * 7 + Math.floor(y) * 3) % 5) + (Math.floor(x) % 3 === 0 ? 0.5 : 0);
    const A: Canvas = { z: 4, x0: 1024, y0: 512, width: 30, height: 20, tileSize: 256 };
    const Bc: Canvas = { ...A, x0: 1024 + 12 };
    const inner = (x: number) => x > Bc.x0 + 1 && x < A.x0 + A.width - 1;
    const collect = (c: Canvas) => {
      const out = run({ levels: [2, 3.5] }, fieldOf(c, f), c);
      const pts: string[] = [];
      for (const g of out.groups) for (const l of g.lines) for (const [x, y] of vertices(l)) if (inner(x)) pts.push(`${g.properties.level}:${x},${y}`);
      return pts.sort();
    };
    const a = collect(A);
    expect(a.length).toBeGreaterThan(50);
    expect(collect(Bc)).toEqual(a);
  });

  test('a lone sample equal to the level gives no degenerate ring', () => {
    const data = new Float32Array(25);
    data[12] = 1;
    const out = run({ levels: [1, 0.5] }, { kind: 'scalar-field', width: 5, height: 5, data }, { z: 0, x0: 0, y0: 0, width: 5, height: 5, tileSize: 256 });
    expect(out.groups.map((g) => g.properties.level)).toEqual([0.5]);
    // A clockwise diamond around the peak, closed by repeating its first vertex.
    expect(vertices(out.groups[0]!.lines[0]!)).toEqual([
      [2, 2.5],
      [2.5, 2],
      [3, 2.5],
      [2.5, 3],
      [2, 2.5],
    ]);
  });
});

describe('levels', () => {
  // A plane from 3.5 to 42.5 along x.
  const plane = fieldOf(C, (x) => x - C.x0 + 3);

  test('base + k * interval within the field range', () => {
    expect(run({ interval: 10, base: 5 }, plane, C).groups.map((g) => g.properties.level)).toEqual([5, 15, 25, 35]);
    expect(run({ interval: 10 }, plane, C).groups.map((g) => g.properties.level)).toEqual([10, 20, 30, 40]);
    expect(run({ interval: 10, base: -1 }, plane, C).groups.map((g) => g.properties.level)).toEqual([9, 19, 29, 39]);
  });

  test('min and max bound the emitted levels (num or $param)', () => {
    expect(run({ interval: 5, min: 12, max: 30 }, plane, C).groups.map((g) => g.properties.level)).toEqual([15, 20, 25, 30]);
    expect(run({ interval: '$iv', min: '$lo' }, plane, C, { iv: 10, lo: 20 }).groups.map((g) => g.properties.level)).toEqual([20, 30, 40]);
  });

  test('explicit levels with a $param: sorted, de-duplicated, overriding interval and base', () => {
    const out = run({ levels: [30, '$lv', 10.25, 30, 99], interval: 7, base: 1 }, plane, C, { lv: 20 });
    expect(out.groups.map((g) => g.properties.level)).toEqual([10.25, 20, 30]);
    for (const g of out.groups) for (const [x] of vertices(g.lines[0]!)) expect(x).toBe(C.x0 + (g.properties.level as number) - 3);
    expect(run({ levels: [30, 10, 20], max: 25 }, plane, C).groups.map((g) => g.properties.level)).toEqual([10, 20]);
    // Changing the param moves the level on the next render.
    expect(run({ levels: ['$lv'] }, plane, C, { lv: 33 }).groups.map((g) => g.properties.level)).toEqual([33]);
  });

  test('intervalLevels includes both ends and never accumulates rounding', () => {
    expect(intervalLevels(0, 10, 10, 30)).toEqual([10, 20, 30]);
    // 7 * 0.1 = 0.7000000000000001 lies above 0.7: levels are compared as computed.
    expect(intervalLevels(0, 0.1, 0.3, 0.7)).toEqual([3, 4, 5, 6].map((k) => k * 0.1));
    expect(intervalLevels(0, 0.1, 0.3, 0.71)).toEqual([3, 4, 5, 6, 7].map((k) => k * 0.1));
    expect(intervalLevels(2, 5, 3, 6)).toEqual([]);
    expect(intervalLevels(0, 1, Infinity, -Infinity)).toEqual([]);
    expect(() => intervalLevels(0, 0.001, 0, 10)).toThrow(/10001 contour levels/);
    expect(normalizeLevels([3, 1, 3, NaN, 2, 1])).toEqual([1, 2, 3]);
  });

  test('a constant field, or levels outside it, give no groups; a bad interval fails', () => {
    const flat = fieldOf(C, () => 7);
    expect(run({ interval: 1 }, flat, C).groups).toEqual([]);
    expect(run({ levels: [100] }, plane, C).groups).toEqual([]);
    expect(() => run({ interval: '$iv' }, plane, C, { iv: 0 })).toThrow(/'interval' must be > 0/);
  });

  test('interval is required unless levels is given', () => {
    expect(contour.check!({ op: 'contour', field: '@f' })).toEqual([{ field: 'interval', message: "'interval' is required unless 'levels' is given" }]);
    expect(contour.check!({ op: 'contour', field: '@f', levels: [1] })).toEqual([]);
  });

  test('the field input reaches one pixel beyond the canvas, so lines pass half a pixel beyond it', () => {
    expect(contour.pad!(() => undefined, 'field', { op: 'contour' })).toBe(1);
    // The plane's line spans the field's outermost sample rows: canvas top - 0.5 to bottom + 0.5.
    const v = vertices(
      run(
        { levels: [10] },
        fieldOf(C, (x) => x - C.x0),
        C,
      ).groups[0]!.lines[0]!,
    );
    const canvasTop = C.y0 + 1;
    const canvasBottom = C.y0 + C.height - 1;
    expect(v[v.length - 1]![1]).toBe(canvasTop - 0.5);
    expect(v[0]![1]).toBe(canvasBottom + 0.5);
  });
});

describe('fieldRange', () => {
  test('the finite minimum and maximum (Math.min / Math.max over the finite values), NaN skipped, none: [Infinity, -Infinity]', () => {
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let c = 0; c < 50; c++) {
      const data = new Float32Array(1 + Math.floor(rand() * 500));
      for (let i = 0; i < data.length; i++) data[i] = rand() < 0.1 ? NaN : Math.fround((rand() - 0.5) * 10 ** (c % 6));
      const finite = Array.from(data).filter(Number.isFinite);
      const want = finite.length ? [Math.min(...finite), Math.max(...finite)] : [Infinity, -Infinity];
      expect(fieldRange(data)).toEqual(want);
    }
    expect(fieldRange(Float32Array.of(NaN, NaN))).toEqual([Infinity, -Infinity]);
    // Contourer.range (from its own scan of the runs) is fieldRange's, zeros' signs included.
    for (let c = 0; c < 200; c++) {
      const w = 1 + Math.floor(rand() * 40);
      const h = Math.floor(rand() * 12);
      const data = new Float32Array(w * h);
      for (let i = 0; i < data.length; i++) {
        const u = rand();
        data[i] = u < 0.15 ? NaN : u < 0.3 ? [0, -0][i % 2]! : u < 0.33 ? [Infinity, -Infinity][i % 2]! : Math.fround((rand() - 0.5) * 4);
      }
      // zeros of both signs as the low (then the high) bound, in different runs and rows
      const zeros = c % 2 ? [0, -0, 1, NaN] : [0, -0, -1, NaN];
      if (c % 3 === 0) for (let i = 0; i < data.length; i++) data[i] = zeros[Math.floor(rand() * 4)]!;
      if (c % 10 === 0) data.fill(NaN);
      const [a, b] = new Contourer(data, w, h, 0, 0).range;
      const [x, y] = fieldRange(data);
      expect([Object.is(a, x), Object.is(b, y), a, b]).toEqual([true, true, x, y]);
    }
    expect(fieldRange(Float32Array.of(NaN, 3, NaN, -2, NaN))).toEqual([-2, 3]);
  });
});

describe('the edge links shared by every Contourer (allocated and filled once, not per render)', () => {
  /** A bumpy field with NaN holes and exact-level samples: rings, open lines and saddles. */
  const bumpy = (w: number, h: number, seed: number) => {
    const d = new Float32Array(w * h);
    for (let j = 0; j < h; j++)
      for (let i = 0; i < w; i++) {
        const v = Math.sin((i + seed) / 3.1) * Math.cos((j - seed) / 2.3) * 100 + ((i * 7 + j * 13 + seed) % 11);
        d[j * w + i] = (i * 31 + j * 17 + seed) % 97 === 0 ? NaN : (i + j) % 23 === 0 ? 50 : v;
      }
    return d;
  };
  const linesOf = (c: Contourer, levels: number[]) => levels.map((l) => c.isolines(l).lines.map((x) => Array.from(x)));
  test('isolines leave them clean; contourers used in turn give the lines each gives alone; a throw mid-way is repaired', () => {
    const levels = [-50, 0, 10, 50, 80];
    const a = bumpy(61, 47, 1);
    const b = bumpy(90, 33, 5);
    const aloneA = linesOf(new Contourer(a, 61, 47, 0, 0), levels);
    expect(linksAreClean()).toBe(true);
    const aloneB = linesOf(new Contourer(b, 90, 33, 3, 4), levels);
    expect(aloneA.flat().length).toBeGreaterThan(5);
    // Two alive at once, their levels interleaved.
    const ca = new Contourer(a, 61, 47, 0, 0);
    const cb = new Contourer(b, 90, 33, 3, 4);
    for (let k = 0; k < levels.length; k++) {
      expect(ca.isolines(levels[k]!).lines.map((x) => Array.from(x))).toEqual(aloneA[k]);
      expect(cb.isolines(levels[k]!).lines.map((x) => Array.from(x))).toEqual(aloneB[k]);
    }
    expect(linksAreClean()).toBe(true);
    // A throw after the links are set (here: in the first chain walked) leaves links behind.
    const broken = new Contourer(a, 61, 47, 0, 0) as unknown as { follow: () => void; isolines: (l: number) => unknown };
    broken.follow = () => {
      throw new Error('interrupted');
    };
    expect(() => broken.isolines(0)).toThrow('interrupted');
    expect(linksAreClean()).toBe(false);
    expect(linesOf(new Contourer(b, 90, 33, 3, 4), levels)).toEqual(aloneB);
    expect(linesOf(new Contourer(a, 61, 47, 0, 0), levels)).toEqual(aloneA);
    expect(linksAreClean()).toBe(true);
  });
});
