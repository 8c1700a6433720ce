// A minimal OpContext for the geometry ops' unit tests: literal fields, feature inputs by field.
import type { OpContext, OpDef } from '../../src/ops/types.js';
import type { Canvas, FeatureGroup, Features, ScalarValue } from '../../src/types.js';
import { compileExpr } from '../../src/expr/index.js';

export const CANVAS: Canvas = { z: 10, x0: 0, y0: 0, width: 256, height: 256, tileSize: 256 };

export function group(geom: Partial<FeatureGroup> & { properties?: Record<string, unknown> }): FeatureGroup {
  return { properties: {}, polygons: [], lines: [], points: new Float64Array(0), ...geom };
}

export async function runOp(op: OpDef, node: Record<string, unknown>, inputs: Record<string, FeatureGroup[]>, canvas: Canvas = CANVAS): Promise<Features> {
  const spec = { op: op.name, ...Object.fromEntries(Object.keys(inputs).map((k) => [k, '@' + k])), ...node } as OpContext['node'];
  const dflt = (f: string) => (op.fields[f] as { default?: ScalarValue } | undefined)?.default;
  const exprs = new Map(
    Object.entries(node)
      .filter(([k]) => k.endsWith('-expr'))
      .map(([k, v]) => [k, compileExpr(v, (op.fields[k] as { 'x-expr': never })['x-expr'], k)]),
  );
  // Geometry ops read plain values through input(); the GPU-only handle() is left out.
  const ctx = {
    id: 'n',
    node: spec,
    canvas,
    window: canvas,
    zoom: canvas.z,
    input: ((f: string) => ({ kind: 'features', groups: inputs[f] ?? [] })) as OpContext['input'],
    has: (f: string) => spec[f] !== undefined,
    num(f: string, fallback?: number) {
      const v = spec[f] ?? fallback ?? dflt(f);
      if (typeof v !== 'number') throw new Error(`field ${f} has no number`);
      return v;
    },
    color: () => [0, 0, 0, 1],
    bool(f: string, fallback?: boolean) {
      const v = spec[f] ?? fallback ?? dflt(f);
      return v === true;
    },
    resolve: (v: unknown) => v as ScalarValue,
    bound(f: string) {
      const v = spec[f] ?? dflt(f);
      if (typeof v !== 'number') throw new Error(`field ${f} has no bound`);
      return v;
    },
    expr: (f: string) => exprs.get(f),
    sources: undefined as never,
  } as unknown as OpContext;
  return (await op.cpu!(ctx)) as Features;
}

/** Shoelace area with y down (positive: clockwise on screen). */
export function ringArea(r: ArrayLike<number>): number {
  let s = 0;
  const n = r.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) s += r[j * 2]! * r[i * 2 + 1]! - r[i * 2]! * r[j * 2 + 1]!;
  return s / 2;
}

/** Area of polygons [exterior, ...holes]: exteriors add, holes subtract. */
export function polygonsArea(polys: readonly (readonly ArrayLike<number>[])[]): number {
  let a = 0;
  for (const p of polys) p.forEach((r, k) => (a += k === 0 ? Math.abs(ringArea(r)) : -Math.abs(ringArea(r))));
  return a;
}

export const sq = (x: number, y: number, s: number): Float64Array => Float64Array.of(x, y, x + s, y, x + s, y + s, x, y + s);

/** A GeoJSON Feature: the lon/lat square with south-west corner (x, y) and side s degrees. */
export const squareFeature = (x: number, y: number, s: number) => ({
  type: 'Feature',
  properties: {},
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [x, y],
        [x + s, y],
        [x + s, y + s],
        [x, y + s],
        [x, y],
      ],
    ],
  },
});

/** A GeoJSON FeatureCollection of one polygon: `rings` of [lon, lat] as written, no properties. */
export function polygonCollection(...rings: number[][][]): object {
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } }] };
}
