// Golden cases of fills and strokes against Mapnik 3.1 (AGG) drawing the same data with the same
// paint (issue 19 part 3). CI has no Mapnik: scripts/witness/mapnik-references.py wrote
// tests/witness/<case>/mapnik.png (and the map XML beside it); versions in mapnik-versions.json.
// AGG anti-aliases with 8-bit scanline coverage where we compute exact areas, so edge pixels
// differ by a few levels; each case states its bound and the share of pixels allowed past it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesPresent } from '../helpers/fixtures.js';
import { decodeWithSharp } from '../helpers/decode.js';
import { compareWithReference, GOLDEN, goldenImages, WITNESS, type Reference } from './harness.js';

async function mapnikReference(name: string): Promise<Reference> {
  const img = await decodeWithSharp(readFileSync(path.join(WITNESS, name, 'mapnik.png')));
  const n = img.width * img.height;
  const rgba = new Float64Array(n * 4);
  for (let p = 0; p < n; p++) {
    const a = img.data[p * 4 + 3]! / 255;
    for (let c = 0; c < 3; c++) rgba[p * 4 + c] = (img.data[p * 4 + c]! / 255) * a;
    rgba[p * 4 + 3] = a;
  }
  return { width: img.width, height: img.height, rgba, mask: new Uint8Array(n).fill(1) };
}

interface MapnikCase {
  name: string;
  /** Premultiplied 1/255 units. */
  bound: number;
  /** Share of pixels allowed past it. */
  fraction: number;
  why: string;
  needsFixtures?: boolean;
}

const CASES: MapnikCase[] = [
  {
    name: 'fill-holes-expr',
    bound: 4,
    fraction: 0,
    why: 'polygon edges only: AGG coverage in 1/256 steps against exact area, measured at most 4/255',
  },
  {
    name: 'stroke-joins-caps',
    bound: 4,
    fraction: 0.005,
    why: 'edges within 4/255; past it (0.35%): the two vertices past their miter limit, which tilegraph bevels (SVG) and Mapnik 3.1 draws mitered whatever stroke-miterlimit and miter-revert say, and round caps under opacity',
  },
  {
    name: 'geom-boolean',
    bound: 4,
    fraction: 0.002,
    why: 'booleans by GEOS; edges within 4/255; past it (0.15%): the outlines where a closed ring starts (a join in ours, the path start in AGG) and arc facets',
  },
  {
    name: 'geom-buffer',
    bound: 4,
    fraction: 0.001,
    why: 'buffers by GEOS (64 segments a quarter circle against our 0.01-0.02 px arc tolerance); past 4/255 (0.05%): outline ring starts',
  },
  {
    name: 'geom-measures',
    bound: 4,
    fraction: 0.002,
    why: 'hull, box, boundary and centroids by GEOS; past 4/255 (0.11%): ring starts of the box outline and cap ends',
  },
  {
    name: 'circles-expr',
    bound: 8,
    fraction: 0.005,
    why: 'disks and rings as GEOS polygons; past 8/255 (0.33%): the seam between a translucent disk and its ring, which Mapnik draws as two anti-aliased polygons and we as one shape',
  },
  {
    name: 'geom-dash-densify',
    bound: 16,
    fraction: 0.005,
    why: 'Mapnik dashes the blue and black lines itself (stroke-dasharray), GEOS cuts the red ones; past 16/255 (0.15%): dash ends and their round caps, placed to a fraction of a pixel differently along the curve',
  },
  {
    name: 'source-geojson-natural-earth',
    bound: 16,
    fraction: 0.005,
    why: "Mapnik reads the Natural Earth files itself; past 16/255 (0.21%): coastlines and borders, which our GeoJSON source simplifies by up to 0.375 px at 512 (MapLibre's tolerance) and Mapnik does not",
    needsFixtures: true,
  },
  {
    name: 'source-mvt-street',
    bound: 8,
    fraction: 0.003,
    why: "GDAL's MVT driver decodes the tile for Mapnik; past 8/255 (0.16%): road ends at the tile edge (GDAL clips features to the tile) and stroke joins",
    needsFixtures: true,
  },
  {
    name: 'source-mvt-npm-chicago',
    bound: 8,
    fraction: 0.003,
    why: "GDAL's MVT driver decodes the four source tiles, each clipped to its square; past 8/255 (0.22%): strokes where a road crosses a source tile edge (two butt-capped pieces in Mapnik) and joins",
  },
];

describe.each(CASES)('$name against Mapnik', ({ name, bound, fraction, why, needsFixtures }) => {
  test(`within ${bound}/255 on all but ${fraction * 100}% of pixels (${why})`, async () => {
    const ref = await mapnikReference(name);
    const images: [string, Parameters<typeof compareWithReference>[0]][] = [];
    if (!needsFixtures || fixturesPresent) {
      const g = await goldenImages(name);
      images.push(['expected.png', g.expected], ['render', g.rendered]);
    } else images.push(['expected.png', await decodeWithSharp(readFileSync(path.join(GOLDEN, name, 'expected.png')))]);
    for (const [which, img] of images) {
      const c = compareWithReference(img, ref, bound);
      const within = c.beyond <= fraction * c.compared;
      expect({ name, which, within, first: within ? undefined : c.first }).toEqual({ name, which, within: true, first: undefined });
    }
  });
});
