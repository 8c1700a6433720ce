// Node results kept across renders, so a param change re-runs only the nodes that read it.
// A node's result depends on the style version, the window, the source data and the values of the
// params it reads, directly or through its inputs (PlanNode.params). Those make the key; a render
// then looks each node up before running it, and a border-colour change costs one stroke and one
// blend instead of a whole tile. Its canvas (the window grown by the node's margin) can depend on
// params it does not read (a blur's sigma sizes the canvases upstream of it, src/graph/margins.ts):
// each entry keeps the canvas it was computed over and serves only renders whose canvas it holds
// (the same pixels where they overlap); a render that needs more computes it again.
// Bounded by bytes (LRU). Only CPU values are kept; cached storage is never returned to the buffer
// pool, and nothing may write into it (render.ts copies before painting onto a cached base).
import type { Plan, PlanNode } from '../graph/build.js';
import type { ParamValues } from '../params/index.js';
import type { Canvas, Value, Window } from '../types.js';
import { ByteLru } from '../util/byte-lru.js';

interface Entry {
  value: Value;
  /** The canvas the value covers. */
  canvas: Canvas;
  /** What the node published beside it (OpContext.publish), kept with it. */
  published?: unknown;
  byteLength: number;
}

/** Approximate bytes a value holds. */
function bytesOf(v: Value): number {
  switch (v.kind) {
    case 'raster':
    case 'scalar-field':
    case 'sprite':
      return v.data.byteLength + 64;
    case 'brush':
      return v.tip.data.byteLength + 64;
    case 'scalar':
      return 64;
    case 'features': {
      let n = 64;
      for (const g of v.groups) {
        n += 128 + g.points.byteLength;
        for (const l of g.lines) n += l.byteLength + 16;
        for (const p of g.polygons) for (const r of p) n += r.byteLength + 16;
      }
      return n;
    }
  }
}

/** Whether canvas `a` holds canvas `b` (the key has fixed the zoom, tile size and pixel ratio). */
function holds(a: Canvas, b: Canvas): boolean {
  return a.x0 <= b.x0 && a.y0 <= b.y0 && a.x0 + a.width >= b.x0 + b.width && a.y0 + a.height >= b.y0 + b.height;
}

export interface NodeCacheStats {
  hits: number;
  misses: number;
  bytes: number;
  entries: number;
}

export class NodeCache {
  private readonly lru: ByteLru<Entry>;
  private hits = 0;
  private misses = 0;

  /** `maxBytes`: the budget of kept results (default 128 MiB). */
  constructor(maxBytes = 128 * 2 ** 20) {
    this.lru = new ByteLru<Entry>(maxBytes);
  }

  /** The key of node `n`'s result for this window and these param values. */
  key(plan: Plan, n: PlanNode, window: Window, params: ParamValues): string {
    const w = window;
    return `${plan.version}|${n.id}|${w.z}/${w.x0}/${w.y0}/${w.width}x${w.height}@${w.tileSize}r${w.pixelRatio ?? 1}|${n.params.size ? params.key(n.params) : ''}`;
  }

  /** The value kept at `key` with the canvas it covers, where that canvas holds `canvas`; else undefined (a miss). */
  get(key: string, canvas: Canvas): { value: Value; canvas: Canvas } | undefined {
    const e = this.lru.get(key);
    const ok = e !== undefined && holds(e.canvas, canvas);
    if (ok) this.hits++;
    else this.misses++;
    return ok ? e : undefined;
  }

  /** What the node published beside the value cached at `key` (no hit or miss counted). */
  published(key: string): unknown {
    return this.lru.peek(key)?.published;
  }

  set(key: string, value: Value, canvas: Canvas, published?: unknown): void {
    this.lru.set(key, { value, canvas, published, byteLength: bytesOf(value) + (published === undefined ? 0 : 4096) });
  }

  get stats(): NodeCacheStats {
    return { hits: this.hits, misses: this.misses, bytes: this.lru.bytes, entries: this.lru.size };
  }

  clear(): void {
    this.lru.clear();
  }
}
