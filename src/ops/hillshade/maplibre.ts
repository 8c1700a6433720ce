// MapLibre GL's hillshade (method 'maplibre'), its two shaders written out: hillshade_prepare
// (a Sobel derivative of elevation / 4, scaled by 2^(exaggeration + 19.2562 - zoom) with its
// zoom-dependent exaggeration below z15, stored in 8 bits) and hillshade.fragment (slope
// atan(1.25 |deriv| / cos(lat)), an exponential slope curve by `exaggeration`, shadow / highlight
// by the aspect against the light, accent by cos(slope)). Our field is at canvas resolution, so
// the derivative is taken there and scaled to the DEM tile's pixels (not over-zoomed).
import type { Canvas, RGBA } from '../../types.js';

export interface MapLibreShade {
  /** hillshade-exaggeration (0..1; MapLibre's shader calls it intensity). */
  exaggeration: number;
  /** hillshade-illumination-direction, degrees clockwise from north. */
  direction: number;
  /** Premultiplied. */
  shadow: RGBA;
  highlight: RGBA;
  accent: RGBA;
  /** Tile size of the DEM source (256 or 512): MapLibre's zoom in the derivative is the DEM tile's. */
  demTileSize: number;
}

/** The zoom MapLibre draws a canvas at (512 px tiles, CSS pixels) and the DEM tile zoom it uses. */
export function maplibreZooms(canvas: Canvas, demTileSize: number): { zoom: number; demZoom: number } {
  const ratio = canvas.pixelRatio ?? 1;
  const zoom = canvas.z + Math.log2(canvas.tileSize / ratio / 512);
  return { zoom, demZoom: Math.round(zoom) + Math.log2(512 / demTileSize) };
}

/** field: (w + 2) x (h + 2) metres (pad 1). Any non-finite value in a window: transparent. */
export function maplibreHillshade(field: Float32Array, w: number, h: number, canvas: Canvas, p: MapLibreShade): Float32Array {
  const out = new Float32Array(w * h * 4);
  const { zoom, demZoom: u } = maplibreZooms(canvas, p.demTileSize);
  const factor = u < 2 ? 0.4 : u < 4.5 ? 0.35 : 0.3;
  const exaggeration = u < 15 ? (u - 15) * factor : 0;
  // Our Sobel is over canvas pixels; MapLibre's over DEM pixels, (ratio x 2^(zoom - round(zoom))) canvas pixels each.
  const demPixels = (canvas.pixelRatio ?? 1) * 2 ** (zoom - Math.round(zoom));
  const scale = demPixels / 4 / 2 ** (exaggeration + (19.2562 - u));
  const intensity = p.exaggeration;
  const azimuth = (p.direction * Math.PI) / 180 + Math.PI;
  const base = 1.875 - intensity * 1.75;
  const maxValue = 0.5 * Math.PI;
  const curve = intensity !== 0.5 ? (s: number) => ((base ** s - 1) / (base ** maxValue - 1)) * maxValue : (s: number) => s;
  const k = Math.min(1, Math.max(0, intensity * 2));
  const sw = w + 2;
  const world = canvas.tileSize * 2 ** canvas.z;
  const q8 = (v: number) => (Math.round(Math.min(1, Math.max(0, v / 2 + 0.5)) * 255) / 255) * 2 - 1;
  for (let j = 0; j < h; j++) {
    const my = (canvas.y0 + j + 0.5) / world;
    const lat = Math.atan(Math.sinh(Math.PI * (1 - 2 * my)));
    const cosLat = Math.cos(lat);
    for (let i = 0; i < w; i++) {
      const r0 = j * sw + i;
      const r1 = r0 + sw;
      const r2 = r1 + sw;
      const a = field[r0]!,
        b = field[r0 + 1]!,
        c = field[r0 + 2]!,
        d = field[r1]!,
        e = field[r1 + 1]!,
        f = field[r1 + 2]!,
        g = field[r2]!,
        hh = field[r2 + 1]!,
        ii = field[r2 + 2]!;
      const o = (j * w + i) * 4;
      const dx0 = (c + f + f + ii - (a + d + d + g)) * scale;
      const dy0 = (g + hh + hh + ii - (a + b + b + c)) * scale;
      if (!Number.isFinite(dx0 + dy0 + e)) continue;
      // The prepared texture holds deriv / 2 + 0.5 in 8 bits.
      const dx = q8(dx0);
      const dy = q8(dy0);
      const slope = Math.atan((1.25 * Math.hypot(dx, dy)) / cosLat);
      const aspect = dx !== 0 ? Math.atan2(dy, -dx) : (Math.PI / 2) * (dy > 0 ? 1 : -1);
      const scaled = curve(slope);
      const accent = Math.cos(scaled);
      const t = (aspect + azimuth) / Math.PI + 0.5;
      const shade = Math.abs(t - 2 * Math.floor(t / 2) - 1);
      const sk = Math.sin(scaled) * k;
      const ak = (1 - accent) * k;
      const sa = (p.shadow[3] + (p.highlight[3] - p.shadow[3]) * shade) * sk;
      for (let q = 0; q < 4; q++) {
        const s = (p.shadow[q]! + (p.highlight[q]! - p.shadow[q]!) * shade) * sk;
        out[o + q] = p.accent[q]! * ak * (1 - sa) + s;
      }
    }
  }
  return out;
}
