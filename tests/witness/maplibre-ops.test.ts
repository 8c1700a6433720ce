// Golden cases of the MapLibre-facing ops against references we did not write:
// - source-raster-pmtiles: the archive's tile as libvips decodes it, through MapLibre's raster
//   shader (raster.fragment.glsl and raster_program.ts, written out here from MapLibre GL JS 5.1),
//   multiplied onto the paper by the W3C formula. Every pixel.
// - pattern-sprite-icon: the sprite sheet's icons as libvips crops them, repeated every icon size
//   from world pixel (0, 0) (MapLibre's pattern anchoring), inside the polygons (pixels whose square
//   no polygon edge crosses, away from the outline stroke), sand at 0.9 over grass over white (W3C).
// Bound: 1.5/255 on premultiplied 8-bit values (8-bit inputs, float32 against doubles, the output's
// rounding and un-premultiplying an 8-bit pixel).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { reference } from '../helpers/w3c-compositing.js';
import { fixture, fixturesTest } from '../helpers/fixtures.js';
import { compareWithReference, goldenImages, GOLDEN, hexColour, worldX, worldY, type Reference } from './harness.js';
import { ROOT } from '../server/fixtures.js';

const BOUND = 1.5;

/** MapLibre's raster paint of one straight colour (GLSL written out; returns premultiplied). */
function maplibreRaster(
  rgb: number[],
  a: number,
  p: { min: number; max: number; contrast: number; saturation: number; hue: number; opacity: number },
): number[] {
  const ang = (p.hue * Math.PI) / 180;
  const s = Math.sin(ang);
  const c = Math.cos(ang);
  const w = [(2 * c + 1) / 3, (-Math.sqrt(3) * s - c + 1) / 3, (Math.sqrt(3) * s - c + 1) / 3];
  const dot = (v: number[], k: number[]) => v[0]! * k[0]! + v[1]! * k[1]! + v[2]! * k[2]!;
  let out = [dot(rgb, w), dot(rgb, [w[2]!, w[0]!, w[1]!]), dot(rgb, [w[1]!, w[2]!, w[0]!])];
  const sat = p.saturation > 0 ? 1 - 1 / (1.001 - p.saturation) : -p.saturation;
  const avg = (rgb[0]! + rgb[1]! + rgb[2]!) / 3;
  out = out.map((v) => v + (avg - v) * sat);
  const con = p.contrast > 0 ? 1 / (1 - p.contrast) : 1 + p.contrast;
  out = out.map((v) => (v - 0.5) * con + 0.5);
  const alpha = a * p.opacity;
  // mix(low, high, rgb) * alpha, clamped as a unorm framebuffer clamps.
  return [...out.map((v) => Math.min(alpha, Math.max(0, (p.min + (p.max - p.min) * v) * alpha))), alpha];
}

fixturesTest('source-raster-pmtiles: the archive tile through MapLibre raster shader, multiplied onto paper (W3C)', async () => {
  const { expected, rendered, window } = await goldenImages('source-raster-pmtiles');
  const style = JSON.parse(readFileSync(path.join(GOLDEN, 'source-raster-pmtiles', 'style.json'), 'utf8'));
  const n = style.nodes.tiles;
  const p = { min: n['brightness-min'], max: n['brightness-max'], contrast: n.contrast, saturation: n.saturation, hue: n['hue-rotate'], opacity: n.opacity };
  const paper = hexColour(style.nodes.paper.color);
  // The case's tile 3/4/2 is the archive's tile 3/4/2 (256 px, one texel per pixel).
  const { PMTiles } = await import('pmtiles');
  const bytes = readFileSync(fixture('pmtiles', 'stamen_toner_raster_CC-BY_ODbL_z3.pmtiles'));
  const archive = new PMTiles({
    getKey: () => 'k',
    getBytes: async (o: number, l: number) => ({ data: bytes.buffer.slice(bytes.byteOffset + o, bytes.byteOffset + o + l) }),
  });
  const [z, x, y] = [3, 4, 2];
  expect([window.x0, window.y0, window.width]).toEqual([x * 256, y * 256, 256]);
  const tile = await archive.getZxy(z, x, y);
  const raw = await sharp(Buffer.from(tile!.data)).ensureAlpha().raw().toBuffer();
  const ref: Reference = { width: 256, height: 256, rgba: new Float64Array(256 * 256 * 4), mask: new Uint8Array(256 * 256).fill(1) };
  for (let i = 0; i < 256 * 256; i++) {
    const a = raw[i * 4 + 3]! / 255;
    const painted = maplibreRaster(
      [0, 1, 2].map((c) => raw[i * 4 + c]! / 255),
      a,
      p,
    );
    const pa = painted[3]!;
    const Cs = pa > 0 ? ([0, 1, 2].map((c) => painted[c]! / pa) as [number, number, number]) : ([0, 0, 0] as [number, number, number]);
    ref.rgba.set(reference('multiply', paper.C, paper.a, Cs, pa, 'over'), i * 4);
  }
  for (const [what, img] of [
    ['expected.png', expected],
    ['render', rendered],
  ] as const) {
    const cmp = compareWithReference(img, ref, BOUND);
    expect({ what, beyond: cmp.beyond, first: cmp.first }).toEqual({ what, beyond: 0, first: undefined });
  }
});

/** Point in polygon (even-odd) and the distance from a point to the ring's edges, in pixels. */
function inside(ring: number[][], px: number, py: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > py !== yj! > py && px < ((xj! - xi!) * (py - yi!)) / (yj! - yi!) + xi!) c = !c;
  }
  return c;
}
function edgeDistance(ring: number[][], px: number, py: number): number {
  let d = Infinity;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [ax, ay] = ring[j]!;
    const [bx, by] = ring[i]!;
    const dx = bx! - ax!;
    const dy = by! - ay!;
    if (dx === 0 && dy === 0) continue; // the ring's closing vertex
    const t = Math.max(0, Math.min(1, ((px - ax!) * dx + (py - ay!) * dy) / (dx * dx + dy * dy)));
    d = Math.min(d, Math.hypot(px - ax! - t * dx, py - ay! - t * dy));
  }
  return d;
}

test('pattern-sprite-icon: libvips crops of the sprite icons repeated from world (0, 0), sand at 0.9 over grass over white (W3C)', async () => {
  const { expected, rendered, window } = await goldenImages('pattern-sprite-icon');
  const dir = path.join(GOLDEN, 'pattern-sprite-icon');
  const style = JSON.parse(readFileSync(path.join(dir, 'style.json'), 'utf8'));
  const sheet = path.join(ROOT, 'tests/maplibre/assets/sprites/emerald');
  const index = JSON.parse(readFileSync(`${sheet}.json`, 'utf8')) as Record<string, { x: number; y: number; width: number; height: number }>;
  const crop = async (name: string) => {
    const e = index[name]!;
    return {
      ...e,
      data: await sharp(readFileSync(`${sheet}.png`))
        .extract({ left: e.x, top: e.y, width: e.width, height: e.height })
        .ensureAlpha()
        .raw()
        .toBuffer(),
    };
  };
  const grass = await crop('grass_noise');
  const sand = await crop('sand_noise');
  const { z, tileSize: T, x0, y0, width: W, height: H } = window;
  const rings = Object.fromEntries(
    (style.sources.shapes.data.features as { properties: { k: string }; geometry: { coordinates: number[][][] } }[]).map((f) => [
      f.properties.k,
      f.geometry.coordinates[0]!.map(([lon, lat]) => [worldX(lon!, z, T) - x0, worldY(lat!, z, T) - y0]),
    ]),
  ) as Record<string, number[][]>;
  const texel = (icon: typeof grass, X: number, Y: number) => {
    const i = ((((Y % icon.height) + icon.height) % icon.height) * icon.width + (((X % icon.width) + icon.width) % icon.width)) * 4;
    const a = icon.data[i + 3]! / 255;
    return { C: [0, 1, 2].map((c) => icon.data[i + c]! / 255) as [number, number, number], a };
  };
  const ref: Reference = { width: W, height: H, rgba: new Float64Array(W * H * 4), mask: new Uint8Array(W * H) };
  for (let py = 0; py < H; py++) {
    for (let px = 0; px < W; px++) {
      const cx = px + 0.5;
      const cy = py + 0.5;
      // Pixels an edge crosses (1 px of anti-aliasing) or the 2 px outline of the sand reaches: left out.
      if (edgeDistance(rings.grass!, cx, cy) < 1 || edgeDistance(rings.sand!, cx, cy) < 2.5) continue;
      let out = [1, 1, 1, 1];
      const X = x0 + px;
      const Y = y0 + py;
      if (inside(rings.grass!, cx, cy)) {
        const g = texel(grass, X, Y);
        out = reference('normal', [out[0]!, out[1]!, out[2]!], out[3]!, g.C, g.a, 'over');
      }
      if (inside(rings.sand!, cx, cy)) {
        const s = texel(sand, X, Y);
        const a = out[3]!;
        out = reference('normal', [out[0]! / a, out[1]! / a, out[2]! / a], a, s.C, s.a, 'over', 0.9);
      }
      ref.rgba.set(out, (py * W + px) * 4);
      ref.mask[py * W + px] = 1;
    }
  }
  for (const [what, img] of [
    ['expected.png', expected],
    ['render', rendered],
  ] as const) {
    const cmp = compareWithReference(img, ref, BOUND);
    expect(cmp.compared).toBeGreaterThan(W * H * 0.8);
    expect({ what, beyond: cmp.beyond, first: cmp.first }).toEqual({ what, beyond: 0, first: undefined });
  }
});
