// fill-solid, stroke-solid and circles: kernels against closed forms through a minimal OpContext,
// then the ops wired through a real style (inline GeoJSON, params, margins, tile seams).
import { compileExpr, type ExprType } from '../../src/expr/index.js';
import { buildPlan } from '../../src/graph/build.js';
import { Renderer } from '../../src/index.js';
import { circles } from '../../src/ops/circles/index.js';
import { fillSolid } from '../../src/ops/fill-solid/index.js';
import { strokeSolid } from '../../src/ops/stroke-solid/index.js';
import type { OpContext, OpDef } from '../../src/ops/types.js';
import { parseHexColor } from '../../src/params/index.js';
import { loadStyle } from '../../src/style/load.js';
import type { Canvas, FeatureGroup, RGBA, Raster, ScalarValue } from '../../src/types.js';

// World pixels: the canvas starts at (1000, 2000), so kernels must subtract its origin.
const CANVAS: Canvas = { z: 5, x0: 1000, y0: 2000, width: 80, height: 60, tileSize: 256 };
const X0 = CANVAS.x0;
const Y0 = CANVAS.y0;

/** A minimal OpContext: literal and `$param` fields, real compiled expressions, a features input. */
function ctxFor(op: OpDef, node: Record<string, unknown>, groups: FeatureGroup[], params: Record<string, ScalarValue> = {}, canvas = CANVAS): OpContext {
  const spec: { op: string } & Record<string, unknown> = { op: op.name, features: '@f', ...node };
  const value = (f: string): ScalarValue | undefined => {
    const v = spec[f];
    if (typeof v === 'string' && v.startsWith('$')) return params[v.slice(1)];
    if (typeof v === 'string') return parseHexColor(v);
    return v as ScalarValue | undefined;
  };
  const dflt = (f: string) => (op.fields[f] as { default?: unknown } | undefined)?.default;
  return {
    id: 'n',
    node: spec,
    canvas,
    window: canvas,
    zoom: canvas.z,
    input: (() => ({ kind: 'features', groups })) as OpContext['input'],
    handle: () => ({ kind: 'features', groups }),
    has: (f) => spec[f] !== undefined,
    num: (f, fb) => (value(f) ?? fb ?? dflt(f)) as number,
    nums: () => undefined,
    color: (f, fb) => (value(f) ?? fb) as RGBA,
    bool: (f, fb) => (value(f) ?? fb ?? dflt(f)) as boolean,
    resolve: (v) => v as ScalarValue,
    bound: (f) => value(f) as number,
    expr: (f) => (spec[f] === undefined ? undefined : compileExpr(spec[f], (op.fields[f] as { 'x-expr': ExprType })['x-expr'], f)),
    sources: undefined as never,
  };
}

const run = (op: OpDef, node: Record<string, unknown>, groups: FeatureGroup[], params?: Record<string, ScalarValue>) =>
  op.cpu!(ctxFor(op, node, groups, params)) as Raster;

/** A group from canvas-pixel coordinates (shifted to world pixels). */
function group(props: Record<string, unknown>, g: { polygons?: number[][][]; lines?: number[][]; points?: number[]; cutEnds?: number[] }): FeatureGroup {
  const world = (xy: number[]) => new Float64Array(xy.map((v, i) => v + (i % 2 ? Y0 : X0)));
  return {
    properties: props,
    polygons: (g.polygons ?? []).map((p) => p.map(world)),
    lines: (g.lines ?? []).map(world),
    points: world(g.points ?? []),
    cutEnds: g.cutEnds ? Uint8Array.from(g.cutEnds) : undefined,
  };
}
const rect = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
const hole = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x0, y1, x1, y1, x1, y0];

const px = (r: Raster, x: number, y: number) => Array.from(r.data.subarray((y * r.width + x) * 4, (y * r.width + x) * 4 + 4));
function alphaSum(r: Raster, x0 = 0, x1 = r.width): number {
  let s = 0;
  for (let y = 0; y < r.height; y++) for (let x = x0; x < x1; x++) s += r.data[(y * r.width + x) * 4 + 3]!;
  return s;
}
const close = (a: number[], b: number[], eps = 1e-6) => a.every((v, i) => Math.abs(v - b[i]!) < eps);

describe('fill-solid kernel', () => {
  test('premultiplied colour x alpha x exact coverage; holes stay empty', () => {
    const g = group({}, { polygons: [[rect(10, 10, 40.5, 30.25), hole(20, 15, 30, 25)]] });
    const r = run(fillSolid, { fill: '#ff8000', 'fill-alpha': 0.5 }, [g]);
    expect(close(px(r, 12, 12), [0.5, 0.5 * (128 / 255), 0, 0.5])).toBe(true);
    expect(px(r, 25, 20)).toEqual([0, 0, 0, 0]); // hole
    expect(close(px(r, 40, 12), [0.25, 0.25 * (128 / 255), 0, 0.25])).toBe(true); // half-covered column
    expect(alphaSum(r)).toBeCloseTo(0.5 * (30.5 * 20.25 - 100), 4);
  });

  test('default fill is opaque black; holes cancel whatever their winding', () => {
    const g = group({}, { polygons: [[rect(10, 10, 40, 30), rect(20, 15, 30, 25)]] }); // hole wound like an exterior
    const r = run(fillSolid, {}, [g]);
    expect(px(r, 12, 12)).toEqual([0, 0, 0, 1]);
    expect(px(r, 25, 20)).toEqual([0, 0, 0, 0]);
  });

  test('fill-expr and fill-alpha-expr per feature; null falls back to the constants', () => {
    const groups = [
      group({ kind: 'water', c: '#00ff00' }, { polygons: [[rect(0, 0, 20, 20)]] }),
      group({ kind: 'land' }, { polygons: [[rect(30, 0, 50, 20)]] }),
      group({ kind: 'other', a: 0.25 }, { polygons: [[rect(60, 0, 80, 20)]] }),
    ];
    const r = run(
      fillSolid,
      { fill: '#808080', 'fill-expr': ['match', ['get', 'kind'], 'water', '#0000ff', 'land', '#ff0000', ['get', 'c']], 'fill-alpha-expr': ['get', 'a'] },
      groups,
    );
    expect(px(r, 5, 5)).toEqual([0, 0, 1, 1]);
    expect(px(r, 35, 5)).toEqual([1, 0, 0, 1]);
    // 'other' has no 'c': the colour expression yields nothing, so the constant fill is used; alpha 0.25.
    expect(close(px(r, 65, 5), [0.25 * (128 / 255), 0.25 * (128 / 255), 0.25 * (128 / 255), 0.25])).toBe(true);
  });

  test('later features composite over earlier ones (premultiplied source-over)', () => {
    const groups = [group({}, { polygons: [[rect(0, 0, 30, 30)]] }), group({}, { polygons: [[rect(20, 20, 50, 50)]] })];
    const r = run(fillSolid, { 'fill-expr': ['case', ['==', ['get', 'i'], 1], '#0000ff80', '#ff0000'] }, [
      { ...groups[0]!, properties: { i: 0 } },
      { ...groups[1]!, properties: { i: 1 } },
    ]);
    const a = 128 / 255;
    expect(close(px(r, 25, 25), [1 - a, 0, a, 1])).toBe(true);
    expect(close(px(r, 40, 40), [0, 0, a, a])).toBe(true);
    expect(px(r, 5, 5)).toEqual([1, 0, 0, 1]);
  });

  test('antialias false: whole pixels whose centre is inside', () => {
    const g = group({}, { polygons: [[rect(10.4, 10, 20.6, 20)]] });
    const aa = run(fillSolid, {}, [g]);
    const hard = run(fillSolid, { antialias: false }, [g]);
    expect(px(aa, 10, 12)[3]).toBeCloseTo(0.6, 6);
    expect(px(hard, 10, 12)[3]).toBe(1); // centre 10.5 inside
    expect(px(hard, 20, 12)[3]).toBe(1); // centre 20.5 < 20.6
    expect(px(hard, 21, 12)[3]).toBe(0);
    expect(alphaSum(hard)).toBe(11 * 10);
  });

  test('polygons only: lines and points draw nothing', () => {
    const r = run(fillSolid, {}, [group({}, { lines: [[0, 0, 50, 50]], points: [10, 10] })]);
    expect(alphaSum(r)).toBe(0);
  });
});

describe('stroke-solid kernel', () => {
  test('a horizontal line of width w covers w per column; square caps add w/2 per end', () => {
    const g = group({}, { lines: [[10.5, 30.2, 60.5, 30.2]] });
    const butt = run(strokeSolid, { width: 3 }, [g]);
    for (const x of [12, 30, 59]) expect(alphaSum(butt, x, x + 1)).toBeCloseTo(3, 5);
    expect(alphaSum(butt)).toBeCloseTo(50 * 3, 4);
    const square = run(strokeSolid, { width: 3, cap: 'square' }, [g]);
    expect(alphaSum(square)).toBeCloseTo(53 * 3, 4);
  });

  test('cutEnds: no cap at ends made by clipping', () => {
    const g = group(
      {},
      {
        lines: [
          [10.5, 30.2, 60.5, 30.2],
          [10.5, 50.2, 60.5, 50.2],
        ],
        cutEnds: [1, 3],
      },
    );
    const r = run(strokeSolid, { width: 4, cap: 'square' }, [g]);
    expect(alphaSum(r)).toBeCloseTo(50 * 4 + 2 * 4 + 50 * 4, 4);
  });

  test('width-expr, color-expr and opacity-expr per feature', () => {
    const groups = [group({ w: 2, c: '#ff0000' }, { lines: [[5, 10, 75, 10]] }), group({ w: 6, c: '#0000ff', o: 0.5 }, { lines: [[5, 40, 75, 40]] })];
    const r = run(strokeSolid, { width: 1, 'width-expr': ['get', 'w'], 'color-expr': ['get', 'c'], 'opacity-expr': ['coalesce', ['get', 'o'], 1] }, groups);
    let top = 0;
    let bottom = 0;
    for (let y = 0; y < 25; y++) top += px(r, 30, y)[3]!;
    for (let y = 25; y < 60; y++) bottom += px(r, 30, y)[3]!;
    expect(top).toBeCloseTo(2, 5);
    expect(bottom).toBeCloseTo(6 * 0.5, 5);
    expect(px(r, 30, 10)).toEqual([1, 0, 0, 1]);
    expect(close(px(r, 30, 40), [0, 0, 0.5, 0.5])).toBe(true);
  });

  test('width-max clamps width-expr values', () => {
    const g = group({ w: 20 }, { lines: [[5, 30, 75, 30]] });
    const r = run(strokeSolid, { 'width-expr': ['get', 'w'], 'width-max': 4 }, [g]);
    expect(alphaSum(r, 30, 31)).toBeCloseTo(4, 5);
  });

  test('offset moves the line right of its direction; polygon rings are stroked all round', () => {
    const line = run(strokeSolid, { width: 2, offset: 6 }, [group({}, { lines: [[5, 20, 75, 20]] })]);
    expect(px(line, 30, 26)[3]).toBe(1); // y 25..27
    expect(px(line, 30, 20)[3]).toBe(0);
    const ring = run(strokeSolid, { width: 2 }, [group({}, { polygons: [[rect(20, 10, 60, 50)]] })]);
    expect(alphaSum(ring)).toBeCloseTo(42 * 42 - 38 * 38, 4);
    expect(px(ring, 40, 30)[3]).toBe(0);
  });
});

describe('circles kernel', () => {
  // Coverage sums sample clamp(r - d + 0.5, 0, 1) at pixel centres: pi r^2 up to the lattice error
  // (under 1 px^2 for these radii and centres).
  const disk = (r: number) => Math.PI * r * r;

  test('disk coverage totals pi r^2; colour at the centre; the rim follows clamp(r - d + 0.5)', () => {
    const r = run(circles, { radius: 10, color: '#00ff00' }, [group({}, { points: [40.3, 30.6] })]);
    expect(Math.abs(alphaSum(r) - disk(10))).toBeLessThan(1);
    expect(px(r, 40, 30)).toEqual([0, 1, 0, 1]);
    expect(px(r, 40, 30 - 11)[3]).toBe(0);
    // Coverage at a pixel is clamp(r - d + 0.5, 0, 1) from its centre.
    for (const [x, y] of [
      [40, 20],
      [47, 23],
      [33, 37],
      [50, 31],
    ] as const) {
      const d = Math.hypot(x + 0.5 - 40.3, y + 0.5 - 30.6);
      expect(px(r, x, y)[3]).toBeCloseTo(Math.min(1, Math.max(0, 10 - d + 0.5)), 6);
    }
  });

  test('a stroke ring from r to r + w outside the fill, sharing one anti-aliased boundary', () => {
    const r = run(circles, { radius: 8, color: '#ff0000', 'stroke-width': 4, 'stroke-color': '#0000ff' }, [group({}, { points: [40.3, 30.6] })]);
    expect(Math.abs(alphaSum(r) - disk(12))).toBeLessThan(1);
    let red = 0;
    for (let i = 0; i < r.data.length; i += 4) red += r.data[i]!;
    expect(Math.abs(red - disk(8))).toBeLessThan(1);
    expect(px(r, 50, 30)).toEqual([0, 0, 1, 1]); // d = 10.2: in the ring
    // No stroke when its width is 0.
    const none = run(circles, { radius: 8, 'stroke-width': 0, 'stroke-color': '#0000ff' }, [group({}, { points: [40.3, 30.6] })]);
    expect(Math.abs(alphaSum(none) - disk(8))).toBeLessThan(1);
  });

  test('radius-expr, color-expr and opacity-expr (which scales fill and stroke)', () => {
    const groups = [group({ r: 4, c: '#ff0000' }, { points: [15, 15] }), group({ r: 9, c: '#0000ff', o: 0.5 }, { points: [55, 30, 20, 45] })];
    const r = run(
      circles,
      { 'radius-expr': ['get', 'r'], 'color-expr': ['get', 'c'], 'opacity-expr': ['coalesce', ['get', 'o'], 1], 'stroke-width': 1, 'stroke-color': '#000000' },
      groups,
    );
    expect(px(r, 15, 15)).toEqual([1, 0, 0, 1]);
    expect(close(px(r, 55, 30), [0, 0, 0.5, 0.5])).toBe(true);
    // Alpha: opacity 1 disk of radius 5 (4 + ring 1), two opacity-0.5 disks of radius 10.
    expect(Math.abs(alphaSum(r) - (disk(5) + 2 * 0.5 * disk(10)))).toBeLessThan(2);
  });

  test('points only', () => {
    const r = run(circles, { radius: 5 }, [group({}, { polygons: [[rect(0, 0, 30, 30)]], lines: [[0, 0, 40, 40]] })]);
    expect(alphaSum(r)).toBe(0);
  });
});

describe('padding', () => {
  const b = (vals: Record<string, number>) => (f: string) => vals[f];
  test('fill-solid pads 1 px', () => {
    expect(fillSolid.pad!(b({}), 'features', { op: 'fill-solid' })).toBe(1);
  });
  test('stroke-solid: half width x miter limit (or sqrt 2 for square caps) + offset', () => {
    const pad = (node: Record<string, unknown>, bounds: Record<string, number>) => strokeSolid.pad!(b(bounds), 'features', { op: 'stroke-solid', ...node });
    expect(pad({ width: 6 }, { width: 6 })).toBe(6); // miter, limit 2
    expect(pad({ width: 6, join: 'round' }, { width: 6 })).toBe(3);
    expect(pad({ width: 6, join: 'bevel', cap: 'square' }, { width: 6 })).toBe(Math.ceil(3 * Math.SQRT2));
    expect(pad({ width: 6, join: 'round', offset: -2 }, { width: 6, offset: -2 })).toBe(3 + 4);
    expect(pad({ width: 3, 'miter-limit': 4 }, { width: 3 })).toBe(6);
    // width-expr: width-max, else the 16 px default.
    expect(pad({ 'width-expr': ['get', 'w'], 'width-max': 10, join: 'round' }, { width: 1 })).toBe(5);
    expect(pad({ 'width-expr': ['get', 'w'], join: 'round' }, { width: 1 })).toBe(8);
    // A $param width without max has no bound.
    expect(pad({ width: '$w', join: 'round' }, {})).toBe(8);
  });
  test('circles: radius + stroke width + the half-pixel rim', () => {
    const pad = (node: Record<string, unknown>, bounds: Record<string, number>) => circles.pad!(b(bounds), 'features', { op: 'circles', ...node });
    expect(pad({ radius: 6, 'stroke-width': 2 }, { radius: 6, 'stroke-width': 2 })).toBe(9);
    expect(pad({ 'radius-expr': ['get', 'r'], 'radius-max': 12 }, { radius: 5, 'stroke-width': 0 })).toBe(13);
    expect(pad({ 'radius-expr': ['get', 'r'] }, { radius: 5, 'stroke-width': 0 })).toBe(17);
  });
  test('the build gives the features node these margins', () => {
    const plan = buildPlan(
      loadStyle({
        output: 'out',
        sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
        params: { w: { type: 'number', default: 2, min: 0, max: 12 } },
        nodes: { f: { op: 'features', source: 's' }, out: { op: 'stroke-solid', features: '@f', width: '$w', join: 'round' } },
      }),
    );
    expect(plan.nodes.get('f')!.margin).toBe(6);
  });
});

// ---- through a real style: inline GeoJSON, tile windows, params ---------------------------

/** [lon, lat] of a world pixel at zoom z (256 px tiles). */
function lngLat(x: number, y: number, z: number): [number, number] {
  const world = 256 * 2 ** z;
  const n = Math.PI - (2 * Math.PI * y) / world;
  return [(x / world) * 360 - 180, (180 / Math.PI) * Math.atan(Math.sinh(n))];
}

function style(output: string) {
  const z = 2;
  const ring = (pts: [number, number][]) => pts.map(([x, y]) => lngLat(x, y, z));
  // A polygon, a line and a point near the border between tiles x = 1 and x = 2 at zoom 2.
  const features = [
    {
      type: 'Feature',
      id: 1,
      properties: { kind: 'a' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          ring([
            [470, 300],
            [600, 320],
            [560, 430],
            [470, 300],
          ]),
        ],
      },
    },
    {
      type: 'Feature',
      id: 2,
      properties: { w: 5 },
      geometry: {
        type: 'LineString',
        coordinates: ring([
          [420, 470],
          [530, 380],
          [590, 490],
        ]),
      },
    },
    { type: 'Feature', id: 3, properties: { r: 7 }, geometry: { type: 'Point', coordinates: lngLat(509, 450, z) } },
  ];
  return {
    output,
    params: { ink: { type: 'color', default: '#202020' } },
    sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features }, tolerance: 0 } },
    nodes: {
      f: { op: 'features', source: 's' },
      fill: { op: 'fill-solid', features: '@f', fill: '#3080c0' },
      line: { op: 'stroke-solid', features: '@f', 'width-expr': ['coalesce', ['get', 'w'], 3], 'width-max': 8, color: '$ink', join: 'round', cap: 'round' },
      dots: { op: 'circles', features: '@f', 'radius-expr': ['get', 'r'], 'radius-max': 8, color: '#ffcc00', 'stroke-width': 1.5, 'stroke-color': '#000000' },
    },
  };
}

const tileAt = (x: number, width = 256) => ({ z: 2, x0: x, y0: 256, width, height: 256, tileSize: 256 });

describe('through a style', () => {
  test('a $param colour reaches the stroke', async () => {
    const r = Renderer.create(style('line'));
    const base = (await r.renderWindow(tileAt(256))).raster;
    const red = (await r.renderWindow(tileAt(256), r.params({ ink: '#ff0000' }))).raster;
    // A pixel on the line (420,470)->(530,380) at x = 475: y = 425.
    const at = (ras: Raster) => px(ras, 475 - 256, 425 - 256);
    expect(close(at(base), [32 / 255, 32 / 255, 32 / 255, 1], 1e-5)).toBe(true);
    expect(close(at(red), [1, 0, 0, 1], 1e-5)).toBe(true);
  });

  test.each(['fill', 'line', 'dots'])('seams (%s): two tiles side by side equal one window over both', async (node) => {
    const r = Renderer.create(style(node));
    const left = (await r.renderWindow(tileAt(256))).raster;
    const right = (await r.renderWindow(tileAt(512))).raster;
    const both = (await r.renderWindow(tileAt(256, 512))).raster;
    let maxDiff = 0;
    let inkLeft = 0;
    let inkRight = 0;
    for (let y = 0; y < 256; y++) {
      for (let x = 0; x < 512; x++) {
        const t = x < 256 ? left : right;
        const tx = x < 256 ? x : x - 256;
        for (let c = 0; c < 4; c++) {
          const a = t.data[(y * 256 + tx) * 4 + c]!;
          const b = both.data[(y * 512 + x) * 4 + c]!;
          maxDiff = Math.max(maxDiff, Math.abs(a - b));
        }
        if (x < 256) inkLeft += left.data[(y * 256 + tx) * 4 + 3]!;
        else inkRight += right.data[(y * 256 + tx) * 4 + 3]!;
      }
    }
    expect(inkLeft).toBeGreaterThan(20);
    expect(inkRight).toBeGreaterThan(20);
    // geojson-vt rounds each source tile's coordinates to 1/32 px, so a line sampled from a
    // neighbour's buffer instead of its own tile may lean by ~0.01 px: a few 1/255 on edge pixels.
    expect(maxDiff).toBeLessThan(6 / 255);
  });

  test('the polygon outline is not drawn along the tile border where the source clipped it', async () => {
    const r = Renderer.create(style('line'));
    const both = (await r.renderWindow(tileAt(256, 512))).raster;
    // Along x = 512 the polygon spans y 306.5 .. 360.7; away from its real edges only the clip
    // seam lies there.
    let seam = 0;
    for (let y = 312; y < 350; y++) for (const x of [510, 511, 512, 513]) seam += px(both, x - 256, y - 256)[3]!;
    expect(seam).toBeLessThan(1e-6);
    // Its real edges are stroked: (470,300) -> (600,320) crosses x = 530 at y = 309.2.
    expect(px(both, 530 - 256, 309 - 256)[3]).toBeGreaterThan(0.9);
  });
});
