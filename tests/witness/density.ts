// The heatmap witness (tests/witness/d3-ramps.test.ts, mapnik.test.ts): the density closed form at
// pixel centres through d3-interpolate / d3-hsv between a case's colour stops.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { color as d3color } from 'd3-color';
import { interpolateHsv } from 'd3-hsv';
import { interpolateHcl, interpolateHsl, interpolateLab, interpolateRgb } from 'd3-interpolate';
import { GOLDEN, worldX, worldY, type Reference } from './harness.js';

const D3: Record<string, (a: string, b: string) => (t: number) => string> = {
  rgb: interpolateRgb,
  hsl: interpolateHsl,
  hsv: interpolateHsv,
  lab: interpolateLab,
  hcl: interpolateHcl,
};

interface Style {
  params?: Record<string, { default: unknown }>;
  sources: Record<string, { data: { features: { geometry: { type: string; coordinates: number[] } }[] } }>;
  nodes: Record<string, Record<string, unknown>>;
}

/** Pixel centres closer than this (px) to a point's support circle are left out. */
const EDGE = 0.05;

/** The reference image of a case whose colour ramp maps a density of inline points. */
export function heatmapReference(name: string): { ref: Reference; stops: { value: number; color: string }[]; space: string } {
  const dir = path.join(GOLDEN, name);
  const style = JSON.parse(readFileSync(path.join(dir, 'style.json'), 'utf8')) as Style;
  const spec = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as { tile: string; tileSize?: number; params?: Record<string, string> };
  const param = (v: unknown): unknown => (typeof v === 'string' && v.startsWith('$') ? (spec.params?.[v.slice(1)] ?? style.params![v.slice(1)]!.default) : v);
  const ramp = Object.values(style.nodes).find((n) => n.op === 'color-ramp')!;
  const density = Object.values(style.nodes).find((n) => n.op === 'density')!;
  const radius = Number(param(density.radius ?? 30));
  const intensity = Number(param(density.intensity ?? 1));
  const space = (ramp.space as string | undefined) ?? 'rgb';
  const stops = (ramp.stops as { value: unknown; color: unknown }[])
    .map((s) => ({ value: Number(param(s.value)), color: String(param(s.color)) }))
    .sort((a, b) => a.value - b.value);
  const [z, tx, ty] = spec.tile.split('/').map(Number) as [number, number, number];
  const T = spec.tileSize ?? 256;
  const points = Object.values(style.sources).flatMap((s) => s.data.features.filter((f) => f.geometry.type === 'Point').map((f) => f.geometry.coordinates));
  const world = points.map(([lon, lat]) => [worldX(lon!, z, T), worldY(lat!, z, T)] as const);
  const rgba = new Float64Array(T * T * 4);
  const mask = new Uint8Array(T * T);
  const colourAt = (v: number): number[] => {
    if (v <= stops[0]!.value) return rgbaOf(stops[0]!.color);
    const last = stops[stops.length - 1]!;
    if (v >= last.value) return rgbaOf(last.color);
    let k = 0;
    while (v > stops[k + 1]!.value) k++;
    const a = stops[k]!;
    const b = stops[k + 1]!;
    return rgbaOf(D3[space]!(a.color, b.color)((v - a.value) / (b.value - a.value)));
  };
  for (let py = 0; py < T; py++)
    for (let px = 0; px < T; px++) {
      const cx = tx * T + px + 0.5;
      const cy = ty * T + py + 0.5;
      let field = 0;
      let onEdge = false;
      for (const [x, y] of world) {
        const d2 = (cx - x) ** 2 + (cy - y) ** 2;
        if (d2 <= radius * radius) field += (intensity * Math.exp((-4.5 * d2) / (radius * radius))) / Math.sqrt(2 * Math.PI);
        // A pixel centre on the support's edge: in or out is a matter of the last bits of a point's position.
        if (Math.abs(Math.sqrt(d2) - radius) < EDGE) onEdge = true;
      }
      const [r, g, b, a] = colourAt(field);
      rgba.set([r! * a!, g! * a!, b! * a!, a!], (py * T + px) * 4);
      mask[py * T + px] = onEdge ? 0 : 1;
    }
  return { ref: { width: T, height: T, rgba, mask }, stops, space };
}

/** Straight [r, g, b, a] in [0, 1] of a CSS colour string (d3's output) or a #rrggbb[aa] hex. */
function rgbaOf(css: string): number[] {
  if (css.startsWith('#') && css.length === 9) {
    const v = (k: number) => Number.parseInt(css.slice(1 + 2 * k, 3 + 2 * k), 16) / 255;
    return [v(0), v(1), v(2), v(3)];
  }
  const c = d3color(css)!.rgb();
  return [c.r / 255, c.g / 255, c.b / 255, c.opacity];
}
