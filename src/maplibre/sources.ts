// MapLibre sources as ours: vector -> mvt (tiles or a TileJSON url) or pmtiles (pmtiles:// urls),
// geojson -> geojson, raster -> raster, raster-dem -> dem. Others are noted and left out.
import type { SourceDecl } from '../style/types.js';
import type { Graph } from './graph.js';
import type { MlSource, MlStyle } from './types.js';

/** MapLibre source name -> our source name and type (absent: not converted). */
export type SourceMap = Map<string, { name: string; type: string; decl: SourceDecl; ml: MlSource }>;

/** MapLibre's tile units: geojson `buffer` and `tolerance` are in 1/512 of a tile, ours in 1/4096. */
const GEOJSON_UNITS = 4096 / 512;

const PMTILES = /^pmtiles:\/\//;

function copy(from: MlSource, to: Record<string, unknown>, keys: string[]): void {
  for (const k of keys) if (from[k] !== undefined) to[k] = from[k];
}

/** A url: a PMTiles archive (pmtiles:// as the pmtiles protocol writes it) or a TileJSON. */
function urlFields(url: string): Record<string, unknown> {
  return PMTILES.test(url) ? { url: url.replace(PMTILES, '') } : { tilejson: url };
}

export function convertSources(style: MlStyle, g: Graph): { sources: Record<string, SourceDecl>; map: SourceMap } {
  const sources: Record<string, SourceDecl> = {};
  const map: SourceMap = new Map();
  for (const [mlName, s] of Object.entries(style.sources ?? {})) {
    const note = (message: string) => g.notes.push({ property: `source:${mlName}`, message });
    let decl: Record<string, unknown> | undefined;
    switch (s.type) {
      case 'vector': {
        if (typeof s.url === 'string' && PMTILES.test(s.url)) decl = { type: 'pmtiles', url: s.url.replace(PMTILES, '') };
        else if (typeof s.url === 'string' && !s.tiles) decl = { type: 'mvt', tilejson: s.url, missing: 'empty' };
        else if (Array.isArray(s.tiles)) decl = { type: 'mvt', tiles: s.tiles, missing: 'empty' };
        else note('a vector source needs `tiles` or `url`; left out');
        if (decl) {
          copy(s, decl, ['minzoom', 'maxzoom', 'attribution']);
          if (decl.type === 'mvt') copy(s, decl, ['scheme', 'bounds']);
          if (s.promoteId !== undefined) decl.promoteId = s.promoteId;
          // MapLibre vector tiles keep ~1/8 tile of buffer in practice; ours is 64/4096 unless said.
        }
        break;
      }
      case 'geojson': {
        if (s.data === undefined) {
          note('a geojson source needs `data`; left out');
          break;
        }
        decl = { type: 'geojson', data: s.data };
        if (typeof s.maxzoom === 'number') decl.maxzoom = Math.min(24, Math.round(s.maxzoom));
        decl.buffer = Math.min(4096, Math.round((typeof s.buffer === 'number' ? s.buffer : 128) * GEOJSON_UNITS));
        decl.tolerance = (typeof s.tolerance === 'number' ? s.tolerance : 0.375) * GEOJSON_UNITS;
        if (typeof s.promoteId === 'string') decl.promoteId = s.promoteId;
        else if (s.promoteId !== undefined) note('promoteId per layer does not apply to a geojson source; ignored');
        copy(s, decl, ['attribution']);
        for (const k of ['cluster', 'filter', 'lineMetrics']) if (s[k] !== undefined && s[k] !== false) note(`${k} is not supported; ignored`);
        break;
      }
      case 'raster':
      case 'raster-dem': {
        const dem = s.type === 'raster-dem';
        decl = { type: dem ? 'dem' : 'raster' };
        if (Array.isArray(s.tiles)) decl.tiles = s.tiles;
        else if (typeof s.url === 'string') Object.assign(decl, urlFields(s.url));
        else {
          note(`a ${s.type} source needs \`tiles\` or \`url\`; left out`);
          decl = undefined;
          break;
        }
        decl.tileSize = s.tileSize === 256 ? 256 : 512;
        if (s.tileSize !== undefined && s.tileSize !== 256 && s.tileSize !== 512)
          note(`tileSize ${String(s.tileSize)} is not supported (256 or 512); 512 is used`);
        copy(s, decl, ['minzoom', 'maxzoom', 'scheme', 'bounds', 'attribution']);
        decl.missing = 'empty';
        if (dem) {
          const enc = s.encoding ?? 'mapbox';
          if (enc === 'mapbox' || enc === 'terrarium') decl.encoding = enc;
          else note(`encoding '${String(enc)}' is not supported (mapbox, terrarium); mapbox is used`);
        }
        break;
      }
      default:
        note(`source type '${s.type}' is not supported; its layers are left out`);
    }
    if (!decl) continue;
    const name = g.name(mlName);
    sources[name] = decl as SourceDecl;
    map.set(mlName, { name, type: decl.type as string, decl: decl as SourceDecl, ml: s });
  }
  return { sources, map };
}
