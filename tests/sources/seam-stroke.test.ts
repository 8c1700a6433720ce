// stroke-solid across source-tile edges inside one canvas, through the whole pipeline: MVT lines
// without ids (so the pieces each source tile contributes stay separate groups, painted one over
// the other) crossing z2 tile edges slantwise, stroked and blurred (the blur's margin makes every
// tile's canvas span its neighbours). Compared with the same lines from z1 tiles (over-zoomed),
// whose tile holds the whole window: no cut inside. And the tile-vs-window seam check.
import Pbf from 'pbf';
import { Renderer, toRGBA8 } from '../../src/index.js';
import { compareRGBA } from '../helpers/compare.js';
import { expectSeamless, seam } from '../helpers/seam.js';
import { MemoryLoader } from './helpers.js';

/**
 * Lines in world pixels at z2 (256 px tiles), every vertex on the 1/8 px grid: exact in z2 tile
 * units (1/16 px) and z1 tile units (1/8 px). They cross the z2 edges x = 768 and y = 768 (not z1
 * edges) at 30 and 60 (the first), 31 and 59, 8 and 85 degrees to the edge, with the pieces on
 * either side of a crossing longer than the band a squared end adds (width / 2 / tan 8 = 32 px
 * along the line at width 9) and away from the tiles' corner (docs/format.md, "Seams": within
 * that band of a second edge the pieces overlap or leave a gap).
 */
const LINES: number[][] = [
  [718, 613.375, 818, 786.625],
  [650, 720, 880, 860],
  [758, 641, 776, 764],
  [660, 780, 700.5, 820, 892, 838.25],
];

function zigzag(n: number): number {
  return (n << 1) ^ (n >> 31);
}

/** One MVT tile holding every line whole (coordinates beyond the extent are kept), as features without ids. */
function tile(lines: number[][], z: number, x: number, y: number): Uint8Array {
  // World pixels at z2 to this tile's units (extent 4096).
  const s = 2 ** (2 - z);
  const unit = 4096 / 256;
  const feats = lines.map((l) => {
    const g: number[] = [];
    let cx = 0;
    let cy = 0;
    for (let i = 0; i < l.length; i += 2) {
      const tx = Math.round((l[i]! / s - x * 256) * unit);
      const ty = Math.round((l[i + 1]! / s - y * 256) * unit);
      if (tx !== (l[i]! / s - x * 256) * unit || ty !== (l[i + 1]! / s - y * 256) * unit) throw new Error('vertex off the tile grid');
      if (i === 0) g.push((1 << 3) | 1);
      if (i === 2) g.push(((l.length / 2 - 1) << 3) | 2);
      g.push(zigzag(tx - cx), zigzag(ty - cy));
      cx = tx;
      cy = ty;
    }
    return g;
  });
  const pbf = new Pbf();
  pbf.writeMessage(
    3,
    (_: unknown, p: Pbf) => {
      p.writeVarintField(15, 2);
      p.writeStringField(1, 'l');
      for (const g of feats)
        p.writeMessage(
          2,
          (_f: unknown, q: Pbf) => {
            q.writeVarintField(3, 2);
            q.writePackedVarint(4, g);
          },
          null,
        );
      p.writeVarintField(5, 4096);
    },
    null,
  );
  return pbf.finish();
}

function loader(lines = LINES): MemoryLoader {
  const files: Record<string, Uint8Array> = {};
  for (const z of [1, 2]) for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) files[`${z}-${x}-${y}.mvt`] = tile(lines, z, x, y);
  return new MemoryLoader(files);
}

function style(z: number, width: number, color: string, sigma: number): object {
  return paperStyle(z, { op: 'stroke-solid', features: '@f', width, color }, { soft: { op: 'blur', input: '@st', sigma } }, '#f4f1ea', '@soft');
}

/** Paper `bg` under `over` (node `st` by default), drawn from layer `l` of the MVT source at zoom z (nodes `extra` beside it). */
function paperStyle(z: number, st: object, extra: Record<string, object> = {}, bg = '#ffffff', over = '@st'): object {
  return {
    output: 'out',
    sources: { s: { type: 'mvt', tiles: ['{z}-{x}-{y}.mvt'], minzoom: z, maxzoom: z } },
    nodes: {
      bg: { op: 'solid', color: bg },
      f: { op: 'features', source: 's', layer: 'l' },
      ...extra,
      st,
      out: { op: 'blend', base: '@bg', over },
    },
  };
}

describe('stroke-solid: lines cut at source-tile edges inside a canvas (MVT, separate groups)', () => {
  for (const [width, color, sigma] of [
    [5, '#1f3a93', 0.6],
    [9, '#c0392bcc', 1.2],
  ] as const) {
    test(`width ${width}, ${color}, blurred by ${sigma}: as the lines from one source tile, and tiles = window`, async () => {
      // Before (each piece's end square to the line): both pieces painted the anti-aliased pixels
      // of the line their butt ends share, one over the other: 33/255 on 91 pixels (width 5) and
      // 9/255 on 202 (width 9, 80 % opaque) off the uncut stroke after the blur (measured; the
      // tile mosaic matched the window all along: both have the cuts). Now 0.
      const win = { z: 2, x0: 640, y0: 640, width: 256, height: 256, tileSize: 256 };
      const L = loader();
      const cut = toRGBA8((await Renderer.create(style(2, width, color, sigma), { loader: L }).renderWindow(win)).raster);
      const whole = toRGBA8((await Renderer.create(style(1, width, color, sigma), { loader: L }).renderWindow(win)).raster);
      const cmp = compareRGBA(cut, whole, 256, 256, { channel: 1, fraction: 0 });
      if (process.env.SEAM_DEBUG) console.log(JSON.stringify({ ok: cmp.ok, maxDiff: cmp.maxDiff, badPixels: cmp.badPixels }));
      expect({ ok: cmp.ok, maxDiff: cmp.maxDiff <= 1 }).toEqual({ ok: true, maxDiff: true });
      // Something was drawn across both edges.
      let inked = 0;
      for (let i = 0; i < whole.length; i += 4) if (whole[i + 2]! !== 0xea) inked++;
      expect(inked).toBeGreaterThan(256 * 10);
      // Tile by tile (each canvas spans its neighbours by the blur's margin) = one window.
      expectSeamless(await seam(style(2, width, color, sigma), 2, 2, 2, 256, { loader: L }), 0.9);
    });
  }
});

describe('stroke-solid: a line crossing a source-tile edge at a glancing angle, ending soon past it', () => {
  // x = 768 crossed at 2.9 degrees (4 px across over 80 down) at y = 680; the line ends 20 px along
  // on the left, runs 60 px on the right. Squaring the right piece's cut end to the edge needs the
  // band beside the edge from its butt up to where the stroke's far side meets the edge: 2.5 / 0.05
  // = 50 px along the line, past the left piece's end at 20. Before FeatureGroup.cutBeyond (the
  // sampler's record of how far the cut segment runs on) the band ran those 50 px: a strip of ink
  // beside the edge 30 px past the line's end, as on the toner example's streets at z14 (148 px of
  // halo). Now the band stops where the left piece's segment does: the cut canvas draws what the
  // whole line draws. Butt caps, so the left piece's end and the band's end are one line.
  // The second line, off the window, spans the layer's box past the first one's ends, as a real
  // tile's features reach its buffer: a vertex on that box may be the encoder's cut (not used).
  const lines = [
    [767, 660, 771, 740],
    [0, 1000, 1000, 0],
  ];
  const flat = (z: number) => paperStyle(z, { op: 'stroke-solid', features: '@f', width: 5, color: '#000000' });
  test('the cut canvas (z2 tiles) equals the whole line (one z1 tile)', async () => {
    const win = { z: 2, x0: 640, y0: 640, width: 256, height: 256, tileSize: 256 };
    const L = loader(lines);
    const cut = toRGBA8((await Renderer.create(flat(2), { loader: L }).renderWindow(win)).raster);
    const whole = toRGBA8((await Renderer.create(flat(1), { loader: L }).renderWindow(win)).raster);
    const cmp = compareRGBA(cut, whole, 256, 256, { channel: 1, fraction: 0 });
    if (process.env.SEAM_DEBUG) console.log(JSON.stringify({ ok: cmp.ok, maxDiff: cmp.maxDiff, badPixels: cmp.badPixels }));
    expect({ ok: cmp.ok, maxDiff: cmp.maxDiff }).toEqual({ ok: true, maxDiff: 0 });
    // The line is there, on both sides of the edge.
    const ink = (x: number, y: number) => whole[((y - 640) * 256 + (x - 640)) * 4]!;
    expect([ink(766, 665), ink(769, 700)]).toEqual([0, 0]);
    // Beside the edge above the line's end, paper.
    expect(ink(768, 650)).toBe(255);
  });
});

describe('stroke (brush): a line cut at source-tile edges inside a canvas is one feature again', () => {
  // The brush unites a feature's dabs by maximum and paints features one over the other, so the
  // pieces of a line without ids (a group per source tile) drew the dabs that straddle the edge
  // twice, darker there, unless they are joined where one piece ends and the next starts
  // (joinedAtCuts: the same cut point, equal properties).
  const brushStyle = (z: number) =>
    paperStyle(
      z,
      { op: 'stroke', features: '@f', brush: '@b', 'opacity-jitter': 0.5, seed: 3 },
      { b: { op: 'brush-solid', 'width-px': 6, color: '#204080', hardness: 0.5, 'dabs-per-radius': 2 } },
    );
  test('the cut canvas (z2 tiles) equals the whole lines (one z1 tile)', async () => {
    const win = { z: 2, x0: 640, y0: 640, width: 256, height: 256, tileSize: 256 };
    const L = loader();
    const cut = toRGBA8((await Renderer.create(brushStyle(2), { loader: L }).renderWindow(win)).raster);
    const whole = toRGBA8((await Renderer.create(brushStyle(1), { loader: L }).renderWindow(win)).raster);
    const cmp = compareRGBA(cut, whole, 256, 256, { channel: 1, fraction: 0 });
    if (process.env.SEAM_DEBUG) console.log(JSON.stringify({ ok: cmp.ok, maxDiff: cmp.maxDiff, badPixels: cmp.badPixels }));
    expect({ ok: cmp.ok, maxDiff: cmp.maxDiff <= 1 }).toEqual({ ok: true, maxDiff: true });
    let inked = 0;
    for (let i = 0; i < whole.length; i += 4) if (whole[i]! !== 255) inked++;
    expect(inked).toBeGreaterThan(256 * 10);
  });
});

describe('stroke-solid profile maplibre: dashes along a line longer than MapLibre keeps its distance', () => {
  // MapLibre's line distance starts again from 0 at the first vertex past 2^14 tile units (1,024
  // px at a whole zoom): a serpentine of four 920 px runs in one z1 source tile, drawn at z3, passes
  // it twice. A tile's canvas meets the line part way, at its own edge: the distance there must be
  // counted from where MapLibre's walk of the whole line last started it again, and the cut there
  // must not start it again (it is not a vertex of the line). Before, a canvas whose part began past
  // the limit started the distance again at its own edge, so the dashes jumped at tile edges.
  const serpentine = [[540, 600, 1000, 600, 1000, 650, 540, 650, 540, 700, 1000, 700, 1000, 750, 540, 750]];
  const dashed = paperStyle(1, { op: 'stroke-solid', profile: 'maplibre', features: '@f', width: 3, color: '#000000', 'dash-array': [3, 2] });
  test("z3 tiles (a source tile's piece met part way) = one window", async () => {
    const r = await seam(dashed, 3, 5, 5, 256, { loader: loader(serpentine) });
    if (process.env.SEAM_DEBUG) console.log(JSON.stringify(r));
    expect({ ok: r.ok, maxDiff: r.maxDiff <= 1 }).toEqual({ ok: true, maxDiff: true });
    expect(r.colours).toBeGreaterThan(2);
  });
});
