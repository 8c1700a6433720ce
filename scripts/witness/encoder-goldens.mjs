// Golden cases for the PNG encoder's edges (issue 19): one colour (all white), an opaque white
// first pixel, exactly 256 and exactly 257 colours. Each style draws pixel-aligned squares on tile
// 0/0/0 (256 px: longitude x * 360 / 256 - 180, latitude the inverse Web Mercator of the row), so
// every pixel's colour is known in closed form; expected.png is that closed form written by
// libvips (sharp), never by our encoder. `tilegraph check` then renders each case, encodes it with
// our encoder, decodes it with libvips and must find exactly these pixels (tolerance 0).
//
//   node scripts/witness/encoder-goldens.mjs    (writes golden/encode-*/)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIZE = 256;
const lon = (x) => (x * 360) / SIZE - 180;
const lat = (y) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / SIZE))) * 180) / Math.PI;
const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** A pixel rectangle [x0, x1) x [y0, y1) as a GeoJSON polygon with its colour and alpha. */
function rect(x0, y0, x1, y1, rgb, alpha = 1) {
  const ring = [
    [lon(x0), lat(y0)],
    [lon(x0), lat(y1)],
    [lon(x1), lat(y1)],
    [lon(x1), lat(y0)],
    [lon(x0), lat(y0)],
  ];
  return { type: 'Feature', properties: { color: hex(rgb), alpha }, geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** The style: an optional solid background, then the rectangles filled by their properties. */
function style(name, rects, background) {
  const nodes = {
    shapes: { op: 'features', source: 'shapes' },
    fills: { op: 'fill-solid', features: '@shapes', 'fill-expr': ['to-color', ['get', 'color']], 'fill-alpha-expr': ['get', 'alpha'] },
  };
  if (background) {
    nodes.background = { op: 'solid', color: background };
    nodes.out = { op: 'blend', base: '@background', over: '@fills' };
  }
  return {
    name,
    output: background ? 'out' : 'fills',
    sources: { shapes: { type: 'geojson', data: { type: 'FeatureCollection', features: rects } } },
    nodes,
  };
}

/** Paint the closed form: straight RGBA8, rectangles over the background in order. */
function paint(rects, background) {
  const px = new Uint8Array(SIZE * SIZE * 4);
  if (background) for (let i = 0; i < px.length; i += 4) px.set(background, i);
  for (const r of rects)
    for (let y = r.y0; y < r.y1; y++)
      for (let x = r.x0; x < r.x1; x++) {
        // Only opaque rectangles overlap the background here; a translucent one lies on nothing.
        px.set([...r.rgb, Math.round(r.alpha * 255)], (y * SIZE + x) * 4);
      }
  return px;
}

function countColours(px) {
  const s = new Set();
  for (let i = 0; i < px.length; i += 4) s.add(px.readUInt32LE(i));
  return s.size;
}

/** 16 x 16 cells of 16 px: (i, j) -> r = 17 i, g = 17 j, b = 17 ((7 i + 3 j) mod 16); cell (0, 0) white. */
function grid() {
  const cells = [];
  for (let j = 0; j < 16; j++)
    for (let i = 0; i < 16; i++) {
      const rgb = i === 0 && j === 0 ? [255, 255, 255] : [17 * i, 17 * j, 17 * ((7 * i + 3 * j) % 16)];
      cells.push({ x0: 16 * i, y0: 16 * j, x1: 16 * i + 16, y1: 16 * j + 16, rgb, alpha: 1 });
    }
  return cells;
}

const cases = {
  'encode-white': {
    description:
      'one colour: solid #ffffff (opaque white packs to -1, the encoder’s old run sentinel: an empty PLTE that libvips, pngjs and GDAL reject). Witness: the closed form (every pixel 255,255,255,255) written by libvips',
    rects: [],
    background: [255, 255, 255, 255],
    colours: 1,
  },
  'encode-white-first': {
    description:
      'an opaque white first pixel: white background, a black square over pixels x 64..191, y 128..223 (the old encoder gave the white run another colour’s index: the top half came out 250,250,250). Witness: the closed form written by libvips',
    rects: [{ x0: 64, y0: 128, x1: 192, y1: 224, rgb: [0, 0, 0], alpha: 1 }],
    background: [255, 255, 255, 255],
    colours: 2,
  },
  'encode-256-colours': {
    description:
      'exactly 256 colours (the largest palette): 16 x 16 pixel-aligned 16 px squares, (i, j) coloured r = 17 i, g = 17 j, b = 17 ((7 i + 3 j) mod 16), the first one white. Witness: the closed form written by libvips',
    rects: grid(),
    colours: 256,
  },
  'encode-257-colours': {
    description:
      'exactly 257 colours (one past the palette): the 256-colour grid with the right half of its last square a 257th colour at alpha 0.6 (so RGBA), the first square white. Witness: the closed form written by libvips',
    rects: [
      ...grid().slice(0, 255),
      { x0: 240, y0: 240, x1: 248, y1: 256, rgb: [255, 255, 0], alpha: 1 },
      { x0: 248, y0: 240, x1: 256, y1: 256, rgb: [0, 0, 255], alpha: 0.6 },
    ],
    colours: 257,
  },
};

for (const [name, c] of Object.entries(cases)) {
  const px = paint(c.rects, c.background);
  const n = countColours(Buffer.from(px.buffer));
  if (n !== c.colours) throw new Error(`${name}: ${n} colours, meant ${c.colours}`);
  const dir = path.join(ROOT, 'golden', name);
  mkdirSync(dir, { recursive: true });
  const rects = c.rects.map((r) => rect(r.x0, r.y0, r.x1, r.y1, r.rgb, r.alpha));
  const bg = c.background ? hex(c.background.slice(0, 3)) : undefined;
  writeFileSync(path.join(dir, 'style.json'), `${JSON.stringify(style(name, rects, bg), null, 1)}\n`);
  writeFileSync(
    path.join(dir, 'case.json'),
    `${JSON.stringify({ description: c.description, tile: '0/0/0', tileSize: SIZE, tolerance: { channel: 0, fraction: 0 } }, null, 1)}\n`,
  );
  writeFileSync(
    path.join(dir, 'expected.png'),
    await sharp(Buffer.from(px.buffer), { raw: { width: SIZE, height: SIZE, channels: 4 } })
      .png({ compressionLevel: 9 })
      .toBuffer(),
  );
  console.log(`${name}: ${n} colours`);
}
