// The @2x styles written by hand (tests/pixel-ratio/README.md): a style and the same style with
// every size in pixels written twice as large, committed side by side, never derived from the
// ops' declared units.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PIXEL_RATIO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../pixel-ratio');

type Doc = { sources?: Record<string, { data?: unknown }> } & Record<string, unknown>;

/**
 * `tests/pixel-ratio/<name>/style.json` (k = 1) or `style@2x.json` (k = 2), with its GeoJSON files
 * inlined so it renders without a loader and from any directory.
 */
export function handStyle(name: string, k: 1 | 2): Doc {
  const dir = path.join(PIXEL_RATIO_DIR, name);
  const doc = JSON.parse(readFileSync(path.join(dir, k === 2 ? 'style@2x.json' : 'style.json'), 'utf8')) as Doc;
  for (const s of Object.values(doc.sources ?? {})) {
    if (typeof s.data === 'string' && s.data.endsWith('.geojson')) s.data = JSON.parse(readFileSync(path.join(dir, s.data), 'utf8'));
  }
  return doc;
}

/** The line, triangle and three points the mixed and pads styles draw (each with a width `w`). */
export const RATIO_FEATURES = JSON.parse(readFileSync(path.join(PIXEL_RATIO_DIR, 'ratio-features.geojson'), 'utf8')) as object;

/** A blurred fill, a stroke with a width-expr, circles with a stroke: at pixel ratio 2, k = 1 must equal k = 2 at ratio 1. */
export function ratioStyle(k: 1 | 2): object {
  return handStyle('mixed', k);
}
