// Seam invariant for one style (DESIGN §3): tiles z/x..x+1/y..y+1 rendered one by one and put side
// by side equal the same 2x2 area rendered as one window, within 1/255 on all but 0.01 % of pixels
// (tests/sources/seam.test.ts states the same rule). Also reports coverage and distinct colours so
// an empty or flat render cannot pass.
import { Renderer, tileWindow, toRGBA8, type Backend, type Loader, type ParamValues, type Window } from '../../src/index.js';
import { compareRGBA, type Tolerance } from './compare.js';

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
