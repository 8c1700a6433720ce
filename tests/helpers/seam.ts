// Seam invariant for one style (DESIGN §3): tiles z/x..x+1/y..y+1 rendered one by one and put side
// by side equal the same 2x2 area rendered as one window, within 1/255 on all but 0.01 % of pixels
// (tests/sources/seam.test.ts states the same rule). Also reports coverage and distinct colours so
// an empty or flat render cannot pass.
import { Renderer, tileWindow, toRGBA8, type Backend, type Loader, type ParamValues, type Raster, type Window } from '../../src/index.js';
import { compareRGBA, type Comparison, type Tolerance } from './compare.js';

export const SEAM_TOLERANCE: Tolerance = { channel: 1, fraction: 0.0001 };

export interface SeamResult {
  ok: boolean;
  badPixels: number;
  maxDiff: number;
  covered: number;
  colours: number;
}

export interface SeamOptions {
  loader?: Loader;
  backend?: Backend;
  params?: ParamValues;
  /** Render every window at this pixel ratio (T is then the tiles' real pixel size). */
  pixelRatio?: number;
  tolerance?: Tolerance;
}

/** `style` is a style document, or a Renderer already built (its own loader). T: tile size in pixels. */
export async function seam(style: object, z: number, x: number, y: number, T = 128, opts: SeamOptions = {}): Promise<SeamResult> {
  const r = style instanceof Renderer ? style : Renderer.create(style, opts.loader ? { loader: opts.loader } : {});
  const ratio = opts.pixelRatio ?? 1;
  const at = (w: Window): Window => (ratio !== 1 ? { ...w, pixelRatio: ratio } : w);
  const render = async (w: Window) => toRGBA8((await r.renderWindow(at(w), opts.params, { backend: opts.backend })).raster);
  const W = 2 * T;
  const mosaic = new Uint8Array(W * W * 4);
  for (const [dx, dy] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    const px = await render(tileWindow({ z, x: x + dx, y: y + dy }, T));
    for (let row = 0; row < T; row++) mosaic.set(px.subarray(row * T * 4, (row + 1) * T * 4), ((dy * T + row) * W + dx * T) * 4);
  }
  const win = await render({ z, x0: x * T, y0: y * T, width: W, height: W, tileSize: T });
  const cmp = compareRGBA(win, mosaic, W, W, opts.tolerance ?? SEAM_TOLERANCE);
  let covered = 0;
  const colours = new Set<number>();
  for (let i = 0; i < win.length; i += 4) {
    if (win[i + 3]! > 0) covered++;
    if (colours.size < 1000) colours.add((win[i]! << 24) | (win[i + 1]! << 16) | (win[i + 2]! << 8) | win[i + 3]!);
  }
  return { ok: cmp.ok, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff, covered: covered / (W * W), colours: colours.size };
}

export function expectSeamless(r: SeamResult, minCovered = 0.3): void {
  if (process.env.SEAM_DEBUG) console.log(JSON.stringify(r));
  expect(r.covered).toBeGreaterThan(minCovered);
  expect(r.colours).toBeGreaterThan(20);
  expect({ ok: r.ok, badPixels: r.badPixels }).toEqual({ ok: true, badPixels: expect.any(Number) });
}

export interface WorldSeamResult {
  /** Every tile of the zoom side by side against the whole world as one window. */
  world: Comparison;
  /** The same tiles with the world cut at its middle (tiles 2^z/2.. then 0..), so the antimeridian runs down the centre, against the window from x = W/2 to 3W/2, whose right half the sources and ops wrap. */
  across: Comparison;
  /**
   * Mean step (per channel, 0..255) between the two columns either side of the antimeridian in
   * the tiles (the last column of tile 2^z - 1 beside the first of tile 0), and across the other
   * tile edges (z >= 1): a discontinuity at ±180° shows as a larger first.
   */
  antimeridianStep: number;
  edgeStep: number;
}

/**
 * The seam invariant over a whole zoom, the antimeridian included: every tile of zoom z (T px)
 * rendered one by one, against one window of the world and one window across the antimeridian.
 */
export async function worldSeam(r: Renderer, z: number, T: number, opts: SeamOptions = {}): Promise<WorldSeamResult> {
  const n = 2 ** z;
  const W = n * T;
  const render = async (w: Window) => toRGBA8((await r.renderWindow(w, opts.params, { backend: opts.backend })).raster);
  const mosaic = new Uint8Array(W * W * 4);
  for (let ty = 0; ty < n; ty++)
    for (let tx = 0; tx < n; tx++) {
      const px = await render(tileWindow({ z, x: tx, y: ty }, T));
      for (let row = 0; row < T; row++) mosaic.set(px.subarray(row * T * 4, (row + 1) * T * 4), ((ty * T + row) * W + tx * T) * 4);
    }
  const tol = opts.tolerance ?? SEAM_TOLERANCE;
  const world = compareRGBA(await render({ z, x0: 0, y0: 0, width: W, height: W, tileSize: T }), mosaic, W, W, tol);
  // The mosaic turned by half a world: column c of the turned image is column (c + W/2) mod W.
  const h = W / 2;
  const turned = new Uint8Array(W * W * 4);
  for (let y = 0; y < W; y++) {
    const row = y * W * 4;
    turned.set(mosaic.subarray(row + h * 4, row + W * 4), row);
    turned.set(mosaic.subarray(row, row + h * 4), row + h * 4);
  }
  const across = compareRGBA(await render({ z, x0: h, y0: 0, width: W, height: W, tileSize: T }), turned, W, W, tol);
  let am = 0,
    edge = 0;
  for (let y = 0; y < W; y++) {
    for (let c = 0; c < 3; c++) am += Math.abs(mosaic[(y * W + W - 1) * 4 + c]! - mosaic[y * W * 4 + c]!);
    for (let x = T; x < W; x += T) for (let c = 0; c < 3; c++) edge += Math.abs(mosaic[(y * W + x) * 4 + c]! - mosaic[(y * W + x - 1) * 4 + c]!);
  }
  return { world, across, antimeridianStep: am / (W * 3), edgeStep: n > 1 ? edge / ((n - 1) * W * 3) : Number.NaN };
}

/**
 * The largest channel difference between the 2 x 2 tiles of T px at the top left of `win` and `win`
 * rendered whole (at least 2T square): about 0 when the tiles continue each other (an op's own seam
 * test, where seam() above would need a tile pyramid).
 */
export async function mosaicMaxDiff(render: (w: Window) => Promise<Raster>, win: Window, T: number): Promise<number> {
  const whole = await render(win);
  let m = 0;
  for (const [tx, ty] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    const tile = await render({ ...win, x0: win.x0 + tx * T, y0: win.y0 + ty * T, width: T, height: T });
    for (let y = 0; y < T; y++) {
      for (let x = 0; x < T; x++) {
        const p = (y * T + x) * 4;
        const q = ((y + ty * T) * whole.width + x + tx * T) * 4;
        for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(tile.data[p + c]! - whole.data[q + c]!));
      }
    }
  }
  return m;
}
