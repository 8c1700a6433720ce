// The W3C Compositing and Blending Level 1 formulas (https://www.w3.org/TR/compositing-1/),
// written out from the spec text on straight colours, independently of src/ops/blend: the witness
// for the blend op's unit tests and for the golden cases that blend flat colours.

type V3 = [number, number, number];
export type W3cBlendMode =
  | 'normal'
  | 'multiply'
  | 'screen'
  | 'overlay'
  | 'darken'
  | 'lighten'
  | 'color-dodge'
  | 'color-burn'
  | 'hard-light'
  | 'soft-light'
  | 'difference'
  | 'exclusion'
  | 'hue'
  | 'saturation'
  | 'color'
  | 'luminosity';
/** Porter-Duff operators as tilegraph names them: source-over, source-atop (clip), destination-out. */
export type W3cComposite = 'over' | 'atop' | 'erase';

export const Lum = (c: V3) => 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
function ClipColor(c: V3): V3 {
  const l = Lum(c);
  const n = Math.min(...c);
  const x = Math.max(...c);
  if (n < 0) c = c.map((v) => l + ((v - l) * l) / (l - n)) as V3;
  if (x > 1) c = c.map((v) => l + ((v - l) * (1 - l)) / (x - l)) as V3;
  return c;
}
export function SetLum(c: V3, l: number): V3 {
  const d = l - Lum(c);
  return ClipColor([c[0] + d, c[1] + d, c[2] + d]);
}
const Sat = (c: V3) => Math.max(...c) - Math.min(...c);
function SetSat(c: V3, s: number): V3 {
  // Index the channels as Cmax, Cmid, Cmin and rewrite them as the spec's pseudo-code does.
  const idx = [0, 1, 2].sort((a, b) => c[b]! - c[a]!);
  const [iMax, iMid, iMin] = idx as V3;
  const r: V3 = [0, 0, 0];
  if (c[iMax] > c[iMin]) {
    r[iMid] = ((c[iMid] - c[iMin]) * s) / (c[iMax] - c[iMin]);
    r[iMax] = s;
  } else {
    r[iMid] = r[iMax] = 0;
  }
  r[iMin] = 0;
  return r;
}
export function sep(mode: W3cBlendMode, Cb: number, Cs: number): number {
  const multiply = (b: number, s: number) => b * s;
  const screen = (b: number, s: number) => b + s - b * s;
  const hardLight = (b: number, s: number) => (s <= 0.5 ? multiply(b, 2 * s) : screen(b, 2 * s - 1));
  switch (mode) {
    case 'normal':
      return Cs;
    case 'multiply':
      return multiply(Cb, Cs);
    case 'screen':
      return screen(Cb, Cs);
    case 'overlay':
      return hardLight(Cs, Cb);
    case 'darken':
      return Math.min(Cb, Cs);
    case 'lighten':
      return Math.max(Cb, Cs);
    case 'color-dodge':
      return Cb === 0 ? 0 : Cs === 1 ? 1 : Math.min(1, Cb / (1 - Cs));
    case 'color-burn':
      return Cb === 1 ? 1 : Cs === 0 ? 0 : 1 - Math.min(1, (1 - Cb) / Cs);
    case 'hard-light':
      return hardLight(Cb, Cs);
    case 'soft-light': {
      if (Cs <= 0.5) return Cb - (1 - 2 * Cs) * Cb * (1 - Cb);
      const D = Cb <= 0.25 ? ((16 * Cb - 12) * Cb + 4) * Cb : Math.sqrt(Cb);
      return Cb + (2 * Cs - 1) * (D - Cb);
    }
    case 'difference':
      return Math.abs(Cb - Cs);
    case 'exclusion':
      return Cb + Cs - 2 * Cb * Cs;
    default:
      throw new Error(mode);
  }
}
export function B(mode: W3cBlendMode, Cb: V3, Cs: V3): V3 {
  switch (mode) {
    case 'hue':
      return SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb));
    case 'saturation':
      return SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb));
    case 'color':
      return SetLum(Cs, Lum(Cb));
    case 'luminosity':
      return SetLum(Cb, Lum(Cs));
    default:
      return [0, 1, 2].map((i) => sep(mode, Cb[i]!, Cs[i]!)) as V3;
  }
}
/** Porter-Duff with blending (the spec's general formula); returns premultiplied [r, g, b, a]. */
export function reference(mode: W3cBlendMode, Cb: V3, ab: number, Cs: V3, asRaw: number, comp: W3cComposite, opacity = 1, maskA = 1): number[] {
  const as = asRaw * opacity * maskA;
  const [Fa, Fb] = comp === 'erase' ? [0, 1 - as] : comp === 'atop' ? [ab, 1 - as] : [1, 1 - as];
  const Bv = B(mode, Cb, Cs);
  const Cs2 = [0, 1, 2].map((i) => (1 - ab) * Cs[i]! + ab * Bv[i]!);
  const co = [0, 1, 2].map((i) => as * Fa * Cs2[i]! + ab * Fb * Cb[i]!);
  return [...co, as * Fa + ab * Fb];
}
