// A MapLibre style is validated by the style-spec before it is converted, as MapLibre GL does
// before it renders one (an invalid style does not load there either).
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import type { Problem } from '../errors.js';
import type { MlStyle } from './types.js';

/** The style-spec's validation errors as problems with a JSON pointer ('layers[3].paint.x' -> /layers/3/paint/x). */
export function mapLibreProblems(style: MlStyle): Problem[] {
  let errors: { message: string }[];
  try {
    errors = validateStyleMin(style as never) as { message: string }[];
  } catch (e) {
    return [{ pointer: '', message: `the MapLibre style cannot be validated: ${(e as Error)?.message ?? e}` }];
  }
  return errors.map((e) => {
    const m = /^([^:\s]+): (.*)$/s.exec(e.message);
    if (!m) return { pointer: '', message: `MapLibre style: ${e.message}` };
    const pointer =
      '/' +
      m[1]!
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .filter(Boolean)
        .join('/');
    return { pointer, message: m[2]! };
  });
}
