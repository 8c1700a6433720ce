import { RenderError } from '../../errors.js';
import { fromRgba, interpolateComponents, type ColorSpace } from '../../backends/cpu/color.js';
import type { RGBA } from '../../types.js';
import type { CompiledExpr, OpContext } from '../types.js';

/** Entries of the ramp-expr table (spec): entry j holds the colour at heatmap-density j / 255. */
export const RAMP_SIZE = 256;
/**
 * Entries per stop segment: entry j holds the exact interpolation at f = j / 1023. 1024 keeps the
 * linear lookup within 0.5/255 of exact even where hcl / lab clip out of gamut (256 does not).
 */
export const SEGMENT_SIZE = 1024;

export interface Stop {
  value: number;
  color: RGBA;
}

/** Stops with every `$param` resolved, sorted by value (stable, so equal values keep style order). */
export function resolveStops(ctx: Pick<OpContext, 'node' | 'resolve' | 'id'>): Stop[] {
  const raw = ctx.node.stops as { value: unknown; color: unknown }[];
  const stops = raw.map((s, i) => {
    const value = ctx.resolve(s.value);
    const color = ctx.resolve(s.color);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new RenderError(`node '${ctx.id}' stops[${i}].value is not a number`);
    if (!Array.isArray(color)) throw new RenderError(`node '${ctx.id}' stops[${i}].color is not a colour`);
    return { value, color: color as RGBA };
  });
  return stops.sort((a, b) => a.value - b.value);
}

/**
 * A baked ramp: `values` are the stop values (ascending), `table` holds `size` straight RGBA entries
 * per segment (segment s between values[s] and values[s+1]), `ends` the two end colours.
 * For a ramp expression: values = [0, 1], one segment of RAMP_SIZE `premultiplied` entries.
 */
export interface RampTable {
  size: number;
  values: Float64Array;
  table: Float32Array;
  ends: Float32Array;
  premultiplied: boolean;
}

/** One SEGMENT_SIZE-entry table per segment: entry j is the exact interpolation at f = j / (SEGMENT_SIZE - 1). */
export function stopTables(stops: Stop[], space: ColorSpace): RampTable {
  const segs = stops.length - 1;
  const table = new Float32Array(segs * SEGMENT_SIZE * 4);
  const ca = new Float64Array(3);
  const cb = new Float64Array(3);
  for (let s = 0; s < segs; s++) {
    const a = stops[s]!.color;
    const b = stops[s + 1]!.color;
    fromRgba(space, a, ca);
    fromRgba(space, b, cb);
    for (let j = 0; j < SEGMENT_SIZE; j++) interpolateComponents(space, ca, cb, a[3], b[3], j / (SEGMENT_SIZE - 1), table, (s * SEGMENT_SIZE + j) * 4);
  }
  const first = stops[0]!.color;
  const last = stops[segs]!.color;
  return {
    size: SEGMENT_SIZE,
    values: Float64Array.from(stops, (s) => s.value),
    table,
    ends: Float32Array.of(...first, ...last),
    premultiplied: false,
  };
}

/**
 * The ramp expression at heatmap-density j / 255, j = 0..255, premultiplied (null: transparent).
 * `texture`: the entries read as MapLibre reads its 256 px ramp texture (linear filtering, clamped
 * to the edge): density t falls at entry 256 t - 0.5, so entry j sits at (j + 0.5) / 256.
 */
export function exprTable(ramp: CompiledExpr, zoom: number, texture = false): RampTable {
  const table = new Float32Array(RAMP_SIZE * 4);
  for (let j = 0; j < RAMP_SIZE; j++) {
    const c = ramp.evaluate(zoom, undefined, j / (RAMP_SIZE - 1));
    if (!Array.isArray(c)) continue;
    const a = Math.min(1, Math.max(0, c[3]));
    for (let k = 0; k < 3; k++) table[j * 4 + k] = Math.min(1, Math.max(0, c[k]!)) * a;
    table[j * 4 + 3] = a;
  }
  return {
    size: RAMP_SIZE,
    values: texture ? Float64Array.of(0.5 / RAMP_SIZE, 1 - 0.5 / RAMP_SIZE) : Float64Array.of(0, 1),
    table,
    ends: Float32Array.of(...table.subarray(0, 4), ...table.subarray((RAMP_SIZE - 1) * 4)),
    premultiplied: true,
  };
}

/**
 * Per-pixel lookup: below the first value the first end colour, at or above the last the last one;
 * (the caller skips NaN)
 * otherwise segment s with values[s] <= t < values[s+1], f = (t - values[s]) / width, and linear
 * interpolation between table entries floor(f * (size - 1)) and the next. Writes straight RGBA.
 */
export function makeSampler(r: RampTable): (t: number, out: Float64Array) => void {
  const { size, values, table, ends, premultiplied } = r;
  const last = values.length - 1;
  const straighten = (out: Float64Array) => {
    const a = out[3]!;
    if (a > 0) {
      out[0]! /= a;
      out[1]! /= a;
      out[2]! /= a;
    } else out[0] = out[1] = out[2] = 0;
  };
  return (t, out) => {
    if (t < values[0]! || t >= values[last]!) {
      const e = t < values[0]! ? 0 : 4;
      for (let k = 0; k < 4; k++) out[k] = ends[e + k]!;
    } else {
      let s = last - 1;
      while (values[s]! > t) s--;
      const p = ((t - values[s]!) / (values[s + 1]! - values[s]!)) * (size - 1);
      const j = Math.min(Math.floor(p), size - 2);
      const f = p - j;
      const e = (s * size + j) * 4;
      for (let k = 0; k < 4; k++) out[k] = table[e + k]! + f * (table[e + 4 + k]! - table[e + k]!);
    }
    if (premultiplied) straighten(out);
  };
}

const OPAQUE = new WeakMap<RampTable, boolean>();

/** Every table entry and both ends have alpha 1 (straight tables of opaque stops). */
export function isOpaque(lut: RampTable): boolean {
  let v = OPAQUE.get(lut);
  if (v === undefined) {
    v = !lut.premultiplied && lut.ends[3] === 1 && lut.ends[7] === 1;
    for (let i = 3; v && i < lut.table.length; i += 4) if (lut.table[i] !== 1) v = false;
    OPAQUE.set(lut, v);
  }
  return v;
}
