// The sources of one style, built from its `sources` block and a host loader.
import { RenderError } from '../errors.js';
import type { StyleDoc } from '../style/types.js';
import { GeojsonSource } from './geojson.js';
import type { AnySource, DemSource, FeatureSource, Loader, SourceRegistry } from './types.js';

/** Constructors for source types other than geojson register here (mvt, pmtiles, dem). */
export type SourceFactory = (name: string, decl: NonNullable<StyleDoc['sources']>[string], loader?: Loader) => AnySource;
const FACTORIES = new Map<string, SourceFactory>([
  ['geojson', (name, decl, loader) => new GeojsonSource({ name, decl, loader })],
]);

export function registerSourceType(type: string, factory: SourceFactory): void {
  FACTORIES.set(type, factory);
}

export function createSourceRegistry(doc: StyleDoc, loader?: Loader): SourceRegistry {
  const all = new Map<string, AnySource>();
  for (const [name, decl] of Object.entries(doc.sources ?? {})) {
    const make = FACTORIES.get(decl.type);
    if (make) all.set(name, make(name, decl, loader));
  }
  const pick = <T extends AnySource>(name: string | undefined, ok: (s: AnySource) => s is T, what: string): T => {
    if (name !== undefined) {
      const s = all.get(name);
      if (!s) {
        const decl = doc.sources?.[name];
        throw new RenderError(decl ? `source '${name}' of type '${decl.type}' is not supported by this version` : `unknown source '${name}'`);
      }
      if (!ok(s)) throw new RenderError(`source '${name}' is a ${s.type} source, not a ${what} source`);
      return s;
    }
    const candidates = [...all.values()].filter(ok);
    if (candidates.length === 1) return candidates[0]!;
    throw new RenderError(
      candidates.length === 0 ? `the style has no ${what} source` : `the style has ${candidates.length} ${what} sources (${candidates.map((c) => c.name).join(', ')}); name one with 'source'`,
    );
  };
  return {
    featureSource: (name) => pick(name, (s): s is FeatureSource => s.type !== 'dem', 'feature'),
    demSource: (name) => pick(name, (s): s is DemSource => s.type === 'dem', 'dem'),
    async attribution() {
      const out: string[] = [];
      if (doc.attribution) out.push(doc.attribution);
      for (const s of all.values()) {
        const a = await s.attribution().catch(() => undefined);
        if (a) out.push(a);
      }
      return [...new Set(out.map((s) => s.trim()).filter(Boolean))];
    },
  };
}
