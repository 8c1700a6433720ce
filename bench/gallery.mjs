// The bundled examples (examples/*/style.json) as the benches run them: every one as shipped,
// except terrain, whose source reads the public AWS Terrain Tiles over the network. The benches
// run offline, so terrain gets a local variant: the same style with its `dem` source pointed at the
// Terrarium fixture block of ../shared/fixtures (3x2 tiles of zoom 9, Black Forest and Lake
// Constance; real AWS Terrain Tiles, copied byte for byte), declared with that block's bounds and
// zooms. Everything else in the style is unchanged.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.resolve(ROOT, '../shared/fixtures');
const DEM_BLOCK = { dir: 'dem/terrarium/mapzen-z9-256', z: 9, x0: 268, x1: 270, y0: 177, y1: 178 };

const lon = (x, z) => (x / 2 ** z) * 360 - 180;
const lat = (y, z) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;

/** The terrain example on the local DEM block, written into `tmp`; undefined when the fixtures are absent. */
function localTerrain(tmp) {
  const src = path.join(FIXTURES, DEM_BLOCK.dir);
  if (!existsSync(src)) return undefined;
  const doc = JSON.parse(readFileSync(path.join(ROOT, 'examples/terrain/style.json'), 'utf8'));
  const b = DEM_BLOCK;
  doc.sources.terrain = {
    ...doc.sources.terrain,
    tiles: ['dem/{z}-{x}-{y}.png'],
    minzoom: b.z,
    maxzoom: b.z,
    bounds: [lon(b.x0, b.z), lat(b.y1 + 1, b.z), lon(b.x1 + 1, b.z), lat(b.y0, b.z)],
  };
  delete doc.$schema;
  const dir = path.join(tmp, 'terrain');
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    symlinkSync(src, path.join(dir, 'dem'));
  }
  const file = path.join(dir, 'style.json');
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

/**
 * `[{name, file, view?, note?}]` for every bundled example (`view`: the preview's `#map=` hash, else it opens where the data is), sorted by name; `only` (a RegExp) picks some.
 * Terrain is the local variant (above), or left out with a line saying so when the fixtures are missing.
 */
export function galleryStyles(tmp, only) {
  const out = [];
  for (const name of readdirSync(path.join(ROOT, 'examples')).sort()) {
    const file = path.join(ROOT, 'examples', name, 'style.json');
    if (!existsSync(file) || (only && !only.test(name))) continue;
    if (name === 'terrain') {
      const local = localTerrain(tmp);
      if (!local) {
        console.log(`!!! ${FIXTURES} has no DEM block: the terrain example is not measured (it needs the network)`);
        continue;
      }
      // The preview opens inside the block (map zoom 9: its zoom-10 tiles all have elevation).
      const b = DEM_BLOCK;
      const view = `map=9/${lat((b.y0 + b.y1 + 1) / 2, b.z).toFixed(4)}/${lon((b.x0 + b.x1 + 1) / 2, b.z).toFixed(4)}`;
      out.push({ name, file: local, view, note: 'local DEM copy: the Terrarium z9 fixture block (Black Forest, Lake Constance), over-zoomed' });
    } else out.push({ name, file });
  }
  return out;
}

/**
 * The tiles a bench renders for an example, where its data is (its TileJSON's bounds and minzoom,
 * src/sources/extent.ts): the first zoom from minzoom on at which the bounds cover at least 96
 * tiles, at most the 256 nearest the bounds' centre; and the tiles of the zoom above it (warm-up).
 * The world-wide examples get all 256 tiles of zoom 4. `below`: the 256 tiles of the zoom below
 * nearest the centre (cold renders for a server's warm-up, bench/server.mjs).
 */
export async function tileSet(file) {
  const { styleCoverage, MERCATOR_WORLD } = await import(path.join(ROOT, 'dist/sources/extent.js'));
  const { NodeLoader } = await import(path.join(ROOT, 'dist/hosts/node/loader.js'));
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const cover = await styleCoverage(doc, new NodeLoader({ baseDir: path.dirname(file) }));
  const b = cover.bounds ?? MERCATOR_WORLD;
  const range = (z) => {
    const n = 2 ** z;
    const tx = (lo) => Math.min(n - 1, Math.max(0, Math.floor(((lo + 180) / 360) * n)));
    const ty = (la) => {
      const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, la)) * Math.PI) / 180);
      return Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)));
    };
    const e = 1e-9; // an edge on a tile boundary belongs to the tile inside
    return { x0: tx(b[0] + e), x1: tx(b[2] - e), y0: ty(b[3] - e), y1: ty(b[1] + e) };
  };
  const list = (z, max) => {
    const r = range(z);
    const out = [];
    for (let y = r.y0; y <= r.y1; y++) for (let x = r.x0; x <= r.x1; x++) out.push([z, x, y]);
    const cx = (r.x0 + r.x1 + 1) / 2;
    const cy = (r.y0 + r.y1 + 1) / 2;
    const d = ([, x, y]) => (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2;
    return out.sort((a, c) => d(a) - d(c)).slice(0, max);
  };
  let z = cover.minzoom ?? 0;
  for (; z < 22; z++) {
    const r = range(z);
    if ((r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1) >= 96) break;
  }
  return { zoom: z, tiles: list(z, 256), warm: list(Math.max(0, z - 1), 256), below: list(z + 1, 256) };
}
