// The render bounds of docs/format.md ("Limits"), checked where they are known: margins once per
// style (build), windows, canvases and the memory estimate of one render per render call.
import { BuildError, TilegraphError, ptr, type Problem } from '../errors.js';
import { CANVAS_BYTES_PER_PIXEL, formatBytes, formatInt, LIMITS } from '../limits.js';
import type { Window } from '../types.js';
import type { Plan, PlanNode } from './build.js';
import { MAX_PIXEL_RATIO } from '../render/pixel-ratio.js';

/** A render refused by a bound (window, canvas, memory). Code 'render': CLI exit 4, HTTP 500. */
export class LimitError extends TilegraphError {
  constructor(problems: Problem[] | string) {
    super('render', problems);
    this.name = 'LimitError';
  }
}

/** The padding a node asks of its inputs (its largest, over its input fields). */
function ownPad(n: PlanNode): number {
  if (!n.op.pad) return 0;
  let pad = 0;
  for (const e of n.edges) pad = Math.max(pad, Math.ceil(n.op.pad((f) => n.bounds[f], e.field, n.spec)));
  return pad;
}

/** How a bound was declared, for a sentence: "sigma 5000 (param 'soft' max)". */
function boundText(n: PlanNode, field: string): string {
  const v = n.spec[field];
  const b = n.bounds[field];
  if (typeof v === 'string' && v.startsWith('$')) return `'${field}' max ${b} (param '${v.slice(1)}')`;
  if (typeof v === 'string' && v.startsWith('@')) return `'${field}-max' ${b}`;
  return `'${field}' ${b}`;
}

/** Problems of a built plan's margins: one per node whose own padding, or accumulated margin, passes the limit. */
export function limitProblems(plan: Plan): Problem[] {
  const max = LIMITS.maxMarginPx;
  const out: Problem[] = [];
  // One problem per chain: the node where the margin passes the limit (its own margin is still
  // within it); the nodes before it only inherit the excess.
  for (const id of plan.order) {
    const n = plan.nodes.get(id)!;
    // A node that publishes farther than its canvas (a text node others avoid) reads its inputs that far too.
    const pad = ownPad(n) + n.reach;
    if (pad + n.margin <= max || n.margin > max) continue;
    // The padding fields, or (ops that pad from other fields, e.g. a stroke's width) every bounded field.
    const fields = (n.op.paddingFields ?? Object.keys(n.bounds)).filter((f) => n.bounds[f] !== undefined);
    const field = fields.sort((a, b) => n.bounds[b]! - n.bounds[a]!)[0];
    if (pad > max) {
      const what = field ? boundText(n, field) : `op '${n.op.name}'`;
      out.push({
        pointer: n.pointer + (field ? ptr(field) : ''),
        message: `${what} needs a ${formatInt(pad)} px margin; the limit is ${formatInt(max)} px (lower the bound: the margin is paid on every tile)`,
      });
    } else {
      out.push({
        pointer: n.pointer,
        message: `the margins of this node and the nodes after it add up to ${formatInt(pad + n.margin)} px; the limit is ${formatInt(max)} px`,
      });
    }
  }
  return out;
}

/** Throws a BuildError when a margin passes the limit (call once per style, after margins are fixed). */
export function checkLimits(plan: Plan): void {
  const problems = limitProblems(plan);
  if (problems.length) throw new BuildError(problems);
}

/** Problems of a window itself (what a library caller passes). */
function windowProblems(w: Window): string[] {
  const out: string[] = [];
  if (!w || typeof w !== 'object') return ['the window must be {z, x0, y0, width, height, tileSize}'];
  const { z, x0, y0, width, height, tileSize } = w;
  if (!Number.isInteger(z) || z < 0 || z > LIMITS.maxZoom) out.push(`zoom ${z} is not an integer in 0..${LIMITS.maxZoom}`);
  // The library renders any integer tile size (tests use tiny ones); hosts restrict to 256 and 512.
  if (!Number.isInteger(tileSize) || tileSize < LIMITS.minTileSize || tileSize > LIMITS.maxTileSize) {
    out.push(`tileSize ${tileSize} is not an integer in ${LIMITS.minTileSize}..${LIMITS.maxTileSize} (256 and 512 are usual)`);
  }
  if (!Number.isInteger(width) || width < 1) out.push(`width ${width} is not a positive integer`);
  if (!Number.isInteger(height) || height < 1) out.push(`height ${height} is not a positive integer`);
  if (!Number.isInteger(x0) || !Number.isInteger(y0)) out.push(`the origin ${x0},${y0} is not integer world pixels`);
  const r = w.pixelRatio ?? 1;
  if (!Number.isInteger(r) || r < 1 || r > MAX_PIXEL_RATIO) out.push(`pixelRatio ${r} is not an integer in 1..${MAX_PIXEL_RATIO}`);
  return out;
}

/** The largest canvas, the source tiles it spans, and the estimated peak bytes of rendering `plan` for `window`. */
export function renderFootprint(plan: Plan, w: Window): { canvasPixels: number; node?: string; tiles: number; tilesNode?: string; bytes: number } {
  let canvasPixels = 0;
  let node: string | undefined;
  let tilesNode: string | undefined;
  let tiles = 0;
  let bytes = 0;
  for (const id of plan.order) {
    const n = plan.nodes.get(id)!;
    const m = n.margin * (w.pixelRatio ?? 1);
    const cw = w.width + 2 * m,
      ch = w.height + 2 * m;
    const px = cw * ch;
    const perPixel = CANVAS_BYTES_PER_PIXEL[n.kind] ?? 0;
    // Features are sampled, not allocated, over their canvas: the source tiles bound them, not the
    // pixels (a text node reads features far around the tile to decide its labels alike everywhere).
    const t = (Math.ceil(cw / w.tileSize) + 1) * (Math.ceil(ch / w.tileSize) + 1);
    if (perPixel > 0 && px > canvasPixels) {
      canvasPixels = px;
      node = id;
    }
    if (t > tiles) {
      tiles = t;
      tilesNode = id;
    }
    bytes += px * perPixel;
  }
  return { canvasPixels, node, tiles, tilesNode, bytes };
}

/** Throws a LimitError when the window is malformed or its render would pass the canvas or memory bound. */
export function checkWindow(plan: Plan, w: Window): void {
  const bad = windowProblems(w);
  if (bad.length) throw new LimitError(bad.map((message) => ({ pointer: '', message: `invalid window: ${message}` })));
  const f = renderFootprint(plan, w);
  if (f.canvasPixels > LIMITS.maxCanvasPixels) {
    const n = plan.nodes.get(f.node!)!;
    throw new LimitError([
      {
        pointer: n.pointer,
        message: `a ${w.width}x${w.height} window needs a ${formatInt(f.canvasPixels)}-pixel canvas here (margin ${n.margin} px); the limit is ${formatInt(LIMITS.maxCanvasPixels)} pixels: render a smaller window (tiles)`,
      },
    ]);
  }
  if (f.tiles > LIMITS.maxTilesPerCanvas) {
    const n = plan.nodes.get(f.tilesNode!)!;
    throw new LimitError([
      {
        pointer: n.pointer,
        message: `at tileSize ${w.tileSize} a canvas here (margin ${n.margin} px) spans ${formatInt(f.tiles)} source tiles; the limit is ${formatInt(LIMITS.maxTilesPerCanvas)}: use a larger tile size`,
      },
    ]);
  }
  if (f.bytes > LIMITS.maxRenderBytes) {
    throw new LimitError(
      `a ${w.width}x${w.height} window needs an estimated ${formatBytes(f.bytes)} of canvases; the limit of one render is ${formatBytes(LIMITS.maxRenderBytes)}: render a smaller window (tiles)`,
    );
  }
}
