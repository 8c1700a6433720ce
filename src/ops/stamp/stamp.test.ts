// stamp: closed forms (a 1 x 1 sprite spreads as the bilinear tent; rotation and scale map
// texels where they should), asset errors, seams, CPU/GPU parity.
import { CpuBackend, Renderer, type Raster, type Window } from '../../index.js';
import type { Loader } from '../../sources/types.js';
import type { StyleDoc } from '../../style/types.js';
import { styleDeclaresRef } from '../../hosts/server/preview.js';
import { diffRasters, gpuDescribe, GPU, randomFeatures, testWindow, GEOMETRY_TOL } from '../../../tests/gpu/harness.js';
import { mosaicMaxDiff } from '../../../tests/helpers/seam.js';
import { loaderOf, png, points, TS, WIN } from '../../../tests/helpers/op-window.js';

function style(data: object, node: Record<string, unknown>): object {
  return {
    output: 'out',
    sources: { p: { type: 'geojson', data, buffer: 128, tolerance: 0 } },
    nodes: { f: { op: 'features' }, out: { op: 'stamp', features: '@f', sprite: 'dot.png', ...node } },
  };
}

async function render(s: object, loader: Loader, w: Window = WIN, backend = new CpuBackend() as never): Promise<Raster> {
  const r = Renderer.create(s, { loader });
  return (await r.renderWindow(w, r.params(), { backend })).raster;
}

const tent = (t: number) => Math.max(0, 1 - Math.abs(t));

describe('stamp', () => {
  test('a 1 x 1 sprite at scale 1 spreads as the bilinear tent around its point (total alpha 1)', async () => {
    const loader = loaderOf({ 'dot.png': await png(1, 1, [255, 0, 0, 255]) });
    const [px, py] = [40.3, 50.8];
    const r = await render(style(points([[px, py]]), {}), loader);
    let sum = 0;
    for (let y = 45; y < 56; y++) {
      for (let x = 35; x < 46; x++) {
        const a = r.data[(y * r.width + x) * 4 + 3]!;
        sum += a;
        expect(a).toBeCloseTo(tent(x + 0.5 - px) * tent(y + 0.5 - py), 2); // geojson-vt keeps points to ~1/100 px
      }
    }
    expect(sum).toBeCloseTo(1, 3);
  });

  test('rotation is clockwise and scale is pixels per texel', async () => {
    // 2 x 1 sprite: red on the left, blue on the right; at scale 8 rotated 90 degrees clockwise, red is above, blue below.
    const loader = loaderOf({ 'dot.png': await png(2, 1, [255, 0, 0, 255, 0, 0, 255, 255]) });
    const r = await render(style(points([[64, 64]]), { scale: 8, rotation: 90 }), loader);
    const at = (x: number, y: number) => Array.from(r.data.subarray((y * r.width + x) * 4, (y * r.width + x) * 4 + 4)).map((v) => Math.round(v * 100) / 100);
    // Texel centres land 4 px above and below the point (bilinear: a magnified sprite fades over its outer half texel).
    const red = at(63, 59);
    const blue = at(63, 68);
    expect([red[0]! > 0.7, red[1], red[2], red[0] === red[3]]).toEqual([true, 0, 0, true]);
    expect([blue[2]! > 0.7, blue[0], blue[1], blue[2] === blue[3]]).toEqual([true, 0, 0, true]);
    expect(at(55, 64)[3]).toBe(0); // 8 px wide after rotation (x 60..68) plus the 4 px bilinear fringe
    expect(at(72, 64)[3]).toBe(0);
  });

  test('per-feature opacity and scale expressions; scales past size-max clamp', async () => {
    const loader = loaderOf({ 'dot.png': await png(1, 1, [0, 0, 0, 255]) });
    const r = await render(
      style(
        points(
          [
            [20.5, 20.5],
            [80.5, 80.5],
          ],
          [{ o: 0.25 }, { o: 1 }],
        ),
        { scale: 4, 'opacity-expr': ['get', 'o'], 'size-max': 2 },
      ),
      loader,
    );
    const a = (x: number, y: number) => r.data[(y * r.width + x) * 4 + 3]!;
    expect(a(20, 20)).toBeCloseTo(0.25, 2);
    expect(a(80, 80)).toBeCloseTo(1, 2);
    // Scale clamped to 2: the 1-texel sprite is the tent of half-width 2 (at scale 4 it would be 0.75 and 0.5).
    expect(a(81, 80)).toBeCloseTo(0.5, 2);
    expect(a(82, 80)).toBeCloseTo(0, 2);
  });

  test('sprites from nodes: a circle sprite stamped, and as a brush-file tip', async () => {
    const s = {
      output: 'out',
      sources: {
        p: {
          type: 'geojson',
          data: points([
            [30.5, 30.5],
            [90.5, 90.5],
          ]),
          buffer: 128,
          tolerance: 0,
        },
      },
      nodes: {
        f: { op: 'features' },
        dot: { op: 'circle', kind: 'sprite', 'width-px': 9, 'height-px': 9, 'radius-frac': 0.5, color: '#ff0000' },
        out: { op: 'stamp', features: '@f', sprite: '@dot' },
      },
    };
    const r = await render(s, loaderOf({}));
    const a = (x: number, y: number) => r.data[(y * r.width + x) * 4 + 3]!;
    expect(a(30, 30)).toBeCloseTo(1, 2); // centre of the disk
    expect(a(30 + 6, 30)).toBeCloseTo(0, 2); // outside radius 4.5
    const tip = { ...s, nodes: { ...s.nodes, pen: { op: 'brush-file', src: '@dot', 'width-px': 4 }, out: { op: 'stroke', features: '@f', brush: '@pen' } } };
    // Points draw nothing in a stroke; the node graph builds and renders with a sprite-node tip.
    const t = await render(tip, loaderOf({}));
    expect(Math.max(...t.data)).toBe(0);
  });

  test('a missing or corrupt sprite asset is an error naming the node and the path', async () => {
    await expect(render(style(points([[1, 1]]), { sprite: 'nope.png' }), loaderOf({}))).rejects.toThrow(/'out'.*nope\.png.*ENOENT/);
    await expect(render(style(points([[1, 1]]), {}), loaderOf({ 'dot.png': new Uint8Array([137, 80, 78, 71, 0, 0]) }))).rejects.toThrow(
      /'out'.*dot\.png.*not a readable image/,
    );
  });

  test("the preview's /data route serves a style's literal asset paths (and nothing else)", () => {
    const doc = {
      output: 'out',
      nodes: { out: { op: 'stamp', features: '@f', sprite: 'dot.png' }, pen: { op: 'brush-file', src: '@tip' } },
      functions: { fn: { nodes: { p: { op: 'fill-pattern', features: '@f', pattern: 'tiles/hatch.png' } }, output: 'p', 'output-kind': 'raster' } },
    } as unknown as StyleDoc;
    expect(styleDeclaresRef(doc, 'dot.png')).toBe(true);
    expect(styleDeclaresRef(doc, 'tiles/hatch.png')).toBe(true);
    expect(styleDeclaresRef(doc, '@tip')).toBe(false);
    expect(styleDeclaresRef(doc, 'other.png')).toBe(false);
  });

  test('seams: 2 x 2 tiles equal the window render', async () => {
    const loader = loaderOf({ 'dot.png': await png(2, 2, [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255, 255, 255, 0, 64]) });
    const pts = [
      [63.7, 64.2],
      [10, 63.9],
      [64.4, 5],
      [100, 100],
      [127.5, 64],
    ];
    const s = style(points(pts), { scale: 5, rotation: 30 });
    expect(await mosaicMaxDiff((w) => render(s, loader, w), WIN, TS)).toBeLessThan(1e-5);
  });
});

gpuDescribe('stamp: CPU/GPU parity', () => {
  test('random points, per-feature scale, rotation and opacity', async () => {
    const w = testWindow(64);
    const loader = loaderOf({ 'dot.png': await png(3, 2, [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255, 255, 255, 0, 64, 0, 0, 0, 0, 20, 40, 60, 200]) });
    const s = {
      output: 'out',
      sources: { p: { type: 'geojson', data: randomFeatures(3, w, { points: 40 }, 12) } },
      nodes: {
        f: { op: 'features' },
        out: {
          op: 'stamp',
          features: '@f',
          sprite: 'dot.png',
          'scale-expr': ['+', 1, ['*', 4, ['get', 'v']]],
          'rotation-expr': ['*', 90, ['get', 'k']],
          'opacity-expr': ['-', 1, ['*', 0.15, ['get', 'k']]],
        },
      },
    };
    const c = await render(s, loader, w);
    const g = await render(s, loader, w, GPU as never);
    const d = diffRasters(c, g);
    expect({ maxFloat: d.maxFloat <= GEOMETRY_TOL * 4, max8: d.max8 <= 2 }).toEqual({ maxFloat: true, max8: true });
  });
});
