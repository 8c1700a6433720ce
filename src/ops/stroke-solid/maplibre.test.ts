// stroke-solid `profile: "maplibre"` against MapLibre GL JS's line shader and blending, written
// out here (line.vertex.glsl / line.fragment.glsl of MapLibre GL JS 5.1: outset = gap / 2 + width
// (/ 2 without a gap) + 0.5, inset = gap / 2 + 0.5 with a gap, alpha = clamp(min(dist - (inset -
// blur2), outset - dist) / blur2, 0, 1) with blur2 = blur + 1; blending ONE, ONE_MINUS_SRC_ALPHA
// per triangle, no multisampling). The whole behaviour is witnessed by MapLibre's render tests in
// tests/maplibre; these pin the closed forms.
import { strokeSolid } from './index.js';
import { meshWasmDraws, setMeshWasm } from './maplibre.js';
import { CUT_END, CUT_END_X, CUT_START, CUT_START_X } from '../../geometry/clip.js';
import { group, runOp } from '../../../tests/helpers/geometry.js';
import type { Canvas, FeatureGroup, Raster } from '../../types.js';
import { gpuTest, checkParity, PARITY_WINDOW, randomSource, randomColor, rng, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';

const CANVAS: Canvas = { z: 10, x0: 0, y0: 0, width: 128, height: 128, tileSize: 256 };
const draw = async (node: Record<string, unknown>, groups: FeatureGroup[]) =>
  (await runOp(strokeSolid, { profile: 'maplibre', ...node }, { features: groups }, CANVAS)) as unknown as Raster;
const alphaAt = (r: Raster, x: number, y: number) => r.data[(y * r.width + x) * 4 + 3]!;

/** MapLibre's line.fragment.glsl alpha at `dist` pixels from the line's middle. */
function shader(dist: number, width: number, gap = 0, blur = 0): number {
  const g = gap / 2;
  const half = width / 2;
  const outset = g + half * (g > 0 ? 2 : 1) + 0.5;
  const inset = g + (g > 0 ? 0.5 : 0);
  const blur2 = blur + 1;
  return Math.min(1, Math.max(0, Math.min(dist - (inset - blur2), outset - dist) / blur2));
}

describe('stroke-solid profile maplibre', () => {
  test("across a line: MapLibre's fade over blur + 1 px, with and without a casing gap", async () => {
    for (const [width, gap, blur] of [
      [4, 0, 0],
      [3, 0, 2.5],
      [2, 6, 0],
      [1.5, 3, 1],
    ] as const) {
      const y = 60.3;
      const r = await draw({ width, 'gap-width': gap, blur }, [group({ lines: [Float64Array.of(10, y, 120, y)] })]);
      for (let py = 40; py < 80; py++)
        expect({ width, gap, blur, py, a: alphaAt(r, 64, py) }).toEqual({
          width,
          gap,
          blur,
          py,
          a: expect.closeTo(shader(Math.abs(py + 0.5 - y), width, gap, blur), 5),
        });
    }
  });

  test('a butt end is cut at the pixel centres, without anti-aliasing along the line', async () => {
    const r = await draw({ width: 6 }, [group({ lines: [Float64Array.of(20.3, 64, 100.6, 64)] })]);
    // Pixel centres x + 0.5 in [20.3, 100.6) are covered in full on the line's middle row.
    for (let x = 10; x < 110; x++) expect({ x, a: alphaAt(r, x, 63) }).toEqual({ x, a: x + 0.5 >= 20.3 && x + 0.5 < 100.6 ? 1 : 0 });
  });

  test('a translucent line that crosses itself is blended twice where it overlaps (per triangle)', async () => {
    const r = await draw({ width: 8, opacity: 0.5 }, [group({ lines: [Float64Array.of(20, 20, 108, 108, 108, 20, 20, 108)] })]);
    expect(alphaAt(r, 64, 64)).toBeCloseTo(0.75, 6); // the crossing: 0.5 over 0.5
    expect(alphaAt(r, 40, 40)).toBeCloseTo(0.5, 6);
  });

  test('pieces cut at a source-tile edge draw what the whole line draws (no seam, no double blend)', async () => {
    const whole = await draw({ width: 7, opacity: 0.6 }, [group({ lines: [Float64Array.of(10, 30, 118, 97)] })]);
    // Split at x = 64 (y on the line there), each end flagged as cut on a vertical line.
    const ym = 30 + ((64 - 10) * (97 - 30)) / (118 - 10);
    const a = group({ lines: [Float64Array.of(10, 30, 64, ym)], cutEnds: Uint8Array.of(CUT_END | CUT_END_X) });
    const b = group({ lines: [Float64Array.of(64, ym, 118, 97)], cutEnds: Uint8Array.of(CUT_START | CUT_START_X) });
    const split = await draw({ width: 7, opacity: 0.6 }, [a, b]);
    let max = 0;
    for (let i = 0; i < whole.data.length; i++) max = Math.max(max, Math.abs(whole.data[i]! - split.data[i]!));
    expect(max).toBeLessThan(1e-5);
  });

  test('a piece that runs back along its source-tile edge draws the width that reaches across the edge', async () => {
    // MapLibre draws each tile's lines from its buffered geometry, clipped to the tile: the left
    // tile draws the part of this line's width that reaches back across x = 64 (the render tests
    // line-blur/property-function, line-gap-width/property-function, line-offset/literal-negative
    // and line-width/function pass since). The pieces cut at x = 64 draw what the whole line draws
    // (the whole line has a vertex where it is cut, on its straight run: the same interpolated
    // normals along the segments either side of the cut).
    const line = [10, 10, 64, 19, 70, 20, 65.5, 110];
    const whole = await draw({ width: 7, opacity: 0.6 }, [group({ lines: [Float64Array.from(line)] })]);
    const ym = 10 + ((64 - 10) * (20 - 10)) / (70 - 10);
    const a = group({ lines: [Float64Array.of(10, 10, 64, ym)], cutEnds: Uint8Array.of(CUT_END | CUT_END_X) });
    const b = group({ lines: [Float64Array.of(64, ym, 70, 20, 65.5, 110)], cutEnds: Uint8Array.of(CUT_START | CUT_START_X) });
    const split = await draw({ width: 7, opacity: 0.6 }, [a, b]);
    // Left of the edge, beside the last segment (its left side reaches x ~ 62).
    expect(alphaAt(whole, 63, 100)).toBeGreaterThan(0.5);
    let max = 0;
    for (let i = 0; i < whole.data.length; i++) max = Math.max(max, Math.abs(whole.data[i]! - split.data[i]!));
    expect(max).toBeLessThan(1e-5);
  });

  test('per-feature offset, width and join (data expressions)', async () => {
    const line = Float64Array.of(10, 40, 118, 40);
    const r = await draw({ 'width-expr': ['get', 'w'], 'width-max': 10, 'offset-expr': ['get', 'o'], 'offset-max': 20, 'join-expr': ['get', 'j'] }, [
      group({ lines: [line], properties: { w: 2, o: 10, j: 'round' } }),
    ]);
    // Offset 10 px to the right of the direction (down, for a line heading east), 2 px wide.
    expect(alphaAt(r, 64, 49)).toBeCloseTo(shader(Math.abs(49.5 - 50), 2), 5);
    expect(alphaAt(r, 64, 39)).toBe(0);
  });
});

describe('maplibre-mesh.wat (the triangle fill in WebAssembly)', () => {
  afterEach(() => setMeshWasm(true));

  // Its reference is drawMeshTs (the same f64 operations): every bit of the canvas, on lines that
  // take every join and cap, blur, a casing gap, offsets, translucent paint (triangles blended over
  // each other), dashes (butt and round), sub-pixel and degenerate segments, and lines running off
  // the canvas.
  test('draws the bits of the TypeScript reference', async () => {
    const r = rng(7);
    const lines = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const pts: number[] = [];
        const k = 2 + Math.floor(r() * 6);
        for (let j = 0; j < k; j++) pts.push(-20 + r() * 168, -20 + r() * 168);
        if (i % 5 === 0) pts.push(pts[pts.length - 2]!, pts[pts.length - 1]!); // a zero-length segment
        if (i % 7 === 0) pts.push(pts[pts.length - 2]! + 0.01, pts[pts.length - 1]! + 0.02); // a sub-pixel one
        return group({ lines: [Float64Array.from(pts)], properties: { k: i % 3, w: 0.5 + 9 * r(), o: 6 * r() - 3 } });
      });
    const nodes = [
      { 'width-expr': ['get', 'w'], 'width-max': 10, 'join-expr': ['match', ['get', 'k'], 0, 'round', 1, 'bevel', 'miter'], cap: 'round', opacity: 0.6 },
      { width: 3.3, 'gap-width': 4, blur: 1.7, cap: 'square', join: 'miter', 'miter-limit': 4, color: '#3a7' },
      { width: 5, 'offset-expr': ['get', 'o'], 'offset-max': 3, join: 'round', cap: 'butt', opacity: 0.8, blur: 0.2 },
      // dashed: the pattern's one row (butt caps) and its 15 rows across the line (round caps)
      { width: 4, 'dash-array': [3, 2], join: 'miter', cap: 'butt', opacity: 0.9 },
      { width: 6.5, 'dash-array': [0.5, 1.5, 2, 1], join: 'round', cap: 'round', blur: 0.6, opacity: 0.7 },
    ];
    const before = meshWasmDraws();
    for (const [i, node] of nodes.entries()) {
      const groups = lines(12);
      setMeshWasm(false);
      const ts = await draw(node, groups);
      setMeshWasm(true);
      const wasm = await draw(node, groups);
      const a = new Uint32Array(ts.data.buffer, ts.data.byteOffset, ts.data.length);
      const b = new Uint32Array(wasm.data.buffer, wasm.data.byteOffset, wasm.data.length);
      let differ = 0;
      let painted = 0;
      for (let j = 0; j < a.length; j++) {
        if (a[j] !== b[j]) differ++;
        if (ts.data[j]! > 0) painted++;
      }
      expect({ node: i, differ }).toEqual({ node: i, differ: 0 });
      expect(painted).toBeGreaterThan(1000);
    }
    // The kernel ran (the canvases lie in the canvas arena here).
    expect(meshWasmDraws() - before).toBeGreaterThanOrEqual(60);
  });
});

describe('CPU/GPU parity', () => {
  // The GPU backend runs this profile's CPU kernel (its triangles blend in order): the same pixels.
  gpuTest('stroke-solid profile maplibre: joins, caps, gap, offset, per-feature paint', async () => {
    const r = rng(41);
    const style = {
      output: 'out',
      sources: randomSource(41, { polygons: 3, lines: 8 }),
      nodes: {
        f: { op: 'features' },
        out: {
          op: 'stroke-solid',
          profile: 'maplibre',
          features: '@f',
          'join-expr': ['match', ['get', 'k'], 0, 'round', 1, 'bevel', 'miter'],
          cap: 'round',
          width: 1 + 5 * r(),
          'gap-width': 2 * r(),
          offset: 1.5 * r(),
          'color-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
          opacity: 0.5 + 0.5 * r(),
        },
      },
    };
    await checkParity('stroke-solid profile maplibre', style, PARITY_WINDOW, GEOMETRY_TOL);
  });
});
