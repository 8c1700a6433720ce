// GeoJSON source: tiled with geojson-vt, sampled for any canvas by merging the covering tiles.
import geojsonvt from 'geojson-vt';
import { feature as topoFeature } from 'topojson-client';
import type { GeoJSON, Feature, FeatureCollection } from 'geojson';
import type { Topology } from 'topojson-specification';
import { SourceError } from '../errors.js';
import { classifyRings, clipLine, clipRing, type Rect } from '../geometry/clip.js';
import type { Canvas, FeatureGroup } from '../types.js';
import { coveringTiles } from './tiles.js';
import type { FeatureSource, Loader } from './types.js';
import type { SourceDecl } from '../style/types.js';

const EXTENT = 8192;

export interface GeojsonSourceOptions {
  name: string;
  decl: SourceDecl;
  loader?: Loader;
}

type Index = InstanceType<typeof geojsonvt>;

/** TopoJSON documents are accepted too: every object becomes features. */
function toGeoJSON(doc: unknown): GeoJSON {
  const d = doc as { type?: string; objects?: Record<string, unknown> };
  if (d && d.type === 'Topology' && d.objects) {
    const features: Feature[] = [];
    for (const key of Object.keys(d.objects)) {
      const f = topoFeature(doc as Topology, key as never) as unknown as Feature | FeatureCollection;
      if (f.type === 'FeatureCollection') features.push(...f.features);
      else features.push(f);
    }
    return { type: 'FeatureCollection', features };
  }
  return doc as GeoJSON;
}

export class GeojsonSource implements FeatureSource {
  readonly name: string;
  readonly type = 'geojson' as const;
  readonly minzoom: number;
  readonly maxzoom: number;
  private readonly decl: SourceDecl;
  private readonly loader?: Loader;
  private index?: Promise<Index>;

  constructor(o: GeojsonSourceOptions) {
    this.name = o.name;
    this.decl = o.decl;
    this.loader = o.loader;
    this.minzoom = o.decl.minzoom ?? 0;
    this.maxzoom = o.decl.maxzoom ?? 18;
  }

  layers(): string[] {
    return [this.name];
  }

  async attribution(): Promise<string | undefined> {
    return this.decl.attribution;
  }

  private load(signal?: AbortSignal): Promise<Index> {
    if (!this.index) {
      this.index = (async () => {
        let doc: unknown = this.decl.data;
        if (typeof doc === 'string') {
          if (!this.loader) throw new SourceError(this.name, undefined, `no loader is bound to read '${doc}'`);
          let bytes: Uint8Array;
          try {
            bytes = await this.loader.load(doc, undefined, signal);
          } catch (e) {
            throw new SourceError(this.name, undefined, `cannot read '${doc}': ${(e as Error).message}`, { cause: e });
          }
          try {
            doc = JSON.parse(new TextDecoder().decode(bytes));
          } catch (e) {
            throw new SourceError(this.name, undefined, `'${doc}' is not valid JSON: ${(e as Error).message}`);
          }
        }
        const gj = toGeoJSON(doc);
        if (!gj || typeof gj !== 'object' || !('type' in gj)) throw new SourceError(this.name, undefined, 'the data is not GeoJSON');
        return new geojsonvt(gj, {
          maxZoom: this.maxzoom,
          extent: EXTENT,
          buffer: typeof this.decl.buffer === 'number' ? (this.decl.buffer * EXTENT) / 4096 : 64,
          tolerance: typeof this.decl.tolerance === 'number' ? this.decl.tolerance : 3,
          promoteId: typeof this.decl.promoteId === 'string' ? this.decl.promoteId : null,
        });
      })();
      this.index.catch(() => {
        this.index = undefined; // a failed load may be retried by the next render
      });
    }
    return this.index;
  }

  async features(layer: string, canvas: Canvas, signal?: AbortSignal): Promise<FeatureGroup[]> {
    if (layer !== this.name) throw new SourceError(this.name, undefined, `unknown layer '${layer}'; a geojson source has one layer named after the source ('${this.name}')`);
    const index = await this.load(signal);
    const sz = Math.max(0, Math.min(canvas.z, this.maxzoom));
    const groups: FeatureGroup[] = [];
    const byId = new Map<number | string, FeatureGroup>();
    const crect: Rect = { x0: canvas.x0, y0: canvas.y0, x1: canvas.x0 + canvas.width, y1: canvas.y0 + canvas.height };
    for (const t of coveringTiles(canvas, sz)) {
      const tile = index.getTile(sz, t.wx, t.y);
      if (!tile) continue;
      const s = t.size / EXTENT;
      // Each tile contributes only its own square, so pieces from neighbours abut without overlap.
      const rect: Rect = {
        x0: Math.max(crect.x0, t.px0),
        y0: Math.max(crect.y0, t.py0),
        x1: Math.min(crect.x1, t.px0 + t.size),
        y1: Math.min(crect.y1, t.py0 + t.size),
      };
      for (const f of tile.features) {
        const props = (f.tags ?? {}) as Record<string, unknown>;
        let g: FeatureGroup | undefined = f.id !== undefined ? byId.get(f.id) : undefined;
        const fresh = !g;
        g ??= { id: f.id, properties: props, polygons: [], lines: [], points: new Float64Array(0) };
        const cuts: number[] = g.cutEnds ? Array.from(g.cutEnds) : [];
        if (f.type === 1) {
          const pts: number[] = Array.from(g.points);
          for (const [gx, gy] of f.geometry as [number, number][]) {
            const x = t.px0 + gx * s;
            const y = t.py0 + gy * s;
            if (x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1) pts.push(x, y);
          }
          g.points = new Float64Array(pts);
        } else {
          const rings: Float64Array[] = [];
          for (const part of f.geometry as [number, number][][]) {
            const flat = new Float64Array(part.length * 2);
            for (let i = 0; i < part.length; i++) {
              flat[i * 2] = t.px0 + part[i]![0] * s;
              flat[i * 2 + 1] = t.py0 + part[i]![1] * s;
            }
            if (f.type === 2) {
              for (const piece of clipLine(flat, rect)) {
                g.lines.push(piece.line);
                cuts.push(piece.cut);
              }
            } else {
              const c = clipRing(flat, rect);
              if (c.length >= 6) rings.push(c);
            }
          }
          g.polygons.push(...classifyRings(rings));
        }
        if (cuts.length) g.cutEnds = Uint8Array.from(cuts);
        if (fresh && (g.points.length || g.lines.length || g.polygons.length)) {
          groups.push(g);
          if (f.id !== undefined) byId.set(f.id, g);
        }
      }
    }
    return groups;
  }
}
