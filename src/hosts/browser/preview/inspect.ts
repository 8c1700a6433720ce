// Feature inspection: the features of every `features` node under a point, sampled the way a
// render samples them (the node's source, layer, filter and zoom range) for a small window
// around the point, then hit-tested (inside a polygon, near a line, near a point).
import type { Renderer as CoreRenderer } from '../../../index.js';
import type { OpContext } from '../../../ops/types.js';
import { lngLatToPixel } from '../../../sources/tiles.js';
import type { FeatureGroup, Window } from '../../../types.js';

export interface InspectedFeature {
  /** The `features` node that yields it. */
  node: string;
  geometry: 'polygon' | 'line' | 'point';
  properties: Record<string, unknown>;
}

/** Pixels of slack around the point: lines and points count when this close. */
const SLACK = 4;

function inRing(ring: Float64Array, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const xi = ring[i]!;
    const yi = ring[i + 1]!;
    const xj = ring[j]!;
    const yj = ring[j + 1]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function nearLine(line: Float64Array, x: number, y: number, d: number): boolean {
  for (let i = 0; i + 3 < line.length; i += 2) {
    const ax = line[i]!;
    const ay = line[i + 1]!;
    const dx = line[i + 2]! - ax;
    const dy = line[i + 3]! - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
    if (Math.hypot(ax + t * dx - x, ay + t * dy - y) <= d) return true;
  }
  return false;
}

/** Which geometry of a group is under world pixel (x, y), if any. */
export function hit(g: FeatureGroup, x: number, y: number): InspectedFeature['geometry'] | undefined {
  for (let i = 0; i + 1 < g.points.length; i += 2) if (Math.hypot(g.points[i]! - x, g.points[i + 1]! - y) <= SLACK + 2) return 'point';
  for (const l of g.lines) if (nearLine(l, x, y, SLACK)) return 'line';
  for (const poly of g.polygons) {
    // Even-odd over all rings: inside the outer ring and outside its holes.
    let inside = false;
    for (const ring of poly) if (inRing(ring, x, y)) inside = !inside;
    if (inside) return 'polygon';
  }
  return undefined;
}

/**
 * Features under [lng, lat] at zoom z (tile zoom, 256 px tiles): for each `features` node of the
 * plan, its op's own kernel samples a window of 2 * SLACK + 1 pixels around the point.
 */
export async function featuresAt(core: CoreRenderer, lng: number, lat: number, z: number, signal?: AbortSignal): Promise<InspectedFeature[]> {
  const [px, py] = lngLatToPixel(lng, lat, z, 256);
  const r = SLACK + 2;
  const window: Window = { z, x0: Math.floor(px) - r, y0: Math.floor(py) - r, width: 2 * r + 1, height: 2 * r + 1, tileSize: 256 };
  const out: InspectedFeature[] = [];
  for (const n of core.plan.nodes.values()) {
    if (n.op.name !== 'features' || n.copyOf) continue; // copies (build.ts splitFeatures) are the same features
    // The kernel reads only these members of its context (src/ops/features).
    const ctx = {
      id: n.id,
      node: n.spec,
      canvas: window,
      window,
      zoom: z,
      sources: core.sources,
      signal,
      expr: (f: string) => n.exprs.get(f),
    } as unknown as OpContext;
    const value = (await n.op.cpu!(ctx)) as { groups: FeatureGroup[] };
    for (const g of value.groups) {
      // A group without properties or id has nothing to show (geojson-vt yields such pieces).
      if (g.id === undefined && Object.keys(g.properties).length === 0) continue;
      const geometry = hit(g, px, py);
      if (geometry) out.push({ node: n.id, geometry, properties: { ...g.properties } });
    }
  }
  return out;
}
