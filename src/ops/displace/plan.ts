// What both displace kernels share: amplitudes, padding and the boundary rule.
//
// Output pixel p reads `input` at p + d, bilinear between pixel centres, premultiplied, where
// d = ((R - A/2) 2 amp-x, (G - A/2) 2 amp-y) from the *premultiplied* R, G, A of `displacement`
// at p: an opaque displacement of 0.5 means no offset, 0 and 1 the full amplitude either way, and a
// transparent one no offset (partial alpha scales the offset down). The canvas padding is the
// amplitude bound + 1, so every read lies inside the input canvas: `boundary` decides only reads
// past the world's north and south edges (beyond the poles of Web Mercator): `clamp` repeats the
// edge row, `transparent` reads nothing, `mirror` reflects back into the world.
import type { Canvas } from '../../types.js';
import type { BoundOf, OpContext } from '../types.js';

export type Boundary = 'clamp' | 'transparent' | 'mirror';
export const BOUNDARY_CODE: Record<Boundary, number> = { clamp: 0, transparent: 1, mirror: 2 };

/** Static amplitude bounds per axis (amp-x-px / amp-y-px override amp-px). */
function ampBounds(b: BoundOf): [number, number] {
  const base = b('amp-px') ?? 0;
  return [b('amp-x-px') ?? base, b('amp-y-px') ?? base];
}

/** Padding of the input: the largest amplitude bound, plus 1 for the bilinear neighbour. */
export function inputPad(b: BoundOf): number {
  const [x, y] = ampBounds(b);
  return Math.ceil(Math.max(0, x, y)) + 1;
}

export interface DisplacePlan {
  ampX: number;
  ampY: number;
  pad: number;
  boundary: Boundary;
  /** Input-view rows of the world's north edge (y = 0) and south edge (y = world size). */
  worldTop: number;
  worldBottom: number;
}

export function displacePlan(ctx: OpContext): DisplacePlan {
  const bound = (f: string) => (ctx.has(f) || f === 'amp-px' ? ctx.bound(f) : undefined);
  const pad = inputPad(bound);
  const amp = Math.max(0, ctx.num('amp-px'));
  // ctx.num clamps each to its own bound; an axis field absent falls back to amp-px.
  const ampX = ctx.has('amp-x-px') ? Math.max(0, ctx.num('amp-x-px')) : amp;
  const ampY = ctx.has('amp-y-px') ? Math.max(0, ctx.num('amp-y-px')) : amp;
  const boundary = (['clamp', 'transparent', 'mirror'] as const).find((m) => m === ctx.node.boundary) ?? 'clamp';
  return { ampX, ampY, pad, boundary, ...worldRows(ctx.canvas, pad) };
}

function worldRows(canvas: Canvas, pad: number): { worldTop: number; worldBottom: number } {
  const top = -(canvas.y0 - pad);
  return { worldTop: top, worldBottom: top + canvas.tileSize * 2 ** canvas.z };
}

/** The input-view row a read of row t becomes (or -1: transparent), world edges first, then the view's. */
export function boundaryRow(t: number, p: DisplacePlan, rows: number): number {
  const lo = p.worldTop,
    hi = p.worldBottom;
  if (t < lo || t >= hi) {
    if (p.boundary === 'transparent') return -1;
    if (p.boundary === 'clamp') t = t < lo ? lo : hi - 1;
    else {
      const n = hi - lo;
      let k = (((t - lo) % (2 * n)) + 2 * n) % (2 * n);
      if (k >= n) k = 2 * n - 1 - k;
      t = lo + k;
    }
  }
  return t < 0 ? 0 : t >= rows ? rows - 1 : t;
}
