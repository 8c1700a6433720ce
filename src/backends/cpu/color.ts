// Colour spaces for colour ramps, with d3-color's conventions and constants so that a ramp matches
// d3-interpolate (interpolateRgb / Hsl / Hcl / Lab): hue in degrees, undefined hue (greys) and
// undefined saturation / chroma (black, white) are NaN and take the other end's value when
// interpolating. Colours are straight-alpha sRGB in [0, 1]. No allocation: results go to `out`.

export type ColorSpace = 'rgb' | 'hsl' | 'hsv' | 'hcl' | 'lab';
export const COLOR_SPACES: readonly ColorSpace[] = ['rgb', 'hsl', 'hsv', 'hcl', 'lab'];

/** Rec. 709 luminance of straight sRGB components (used to map a raster to a ramp). */
export function luminance(r: number, g: number, b: number): number {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// d3-color's Lab: D50 white, sRGB primaries Bradford-adapted to D50 (d3-color/src/lab.js).
const Xn = 0.96422;
const Yn = 1;
const Zn = 0.82521;
const t0 = 4 / 29;
const t1 = 6 / 29;
const t2 = 3 * t1 * t1;
const t3 = t1 * t1 * t1;
const DEG = 180 / Math.PI;

function xyz2lab(t: number): number {
  return t > t3 ? Math.pow(t, 1 / 3) : t / t2 + t0;
}
function lab2xyz(t: number): number {
  return t > t1 ? t * t * t : t2 * (t - t0);
}
function rgb2lrgb(x: number): number {
  return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
}
function lrgb2rgb(x: number): number {
  return x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
}

/** Whether component 0 of the space is a hue (interpolated along the shortest arc). */
export function hasHue(space: ColorSpace): boolean {
  return space === 'hsl' || space === 'hsv' || space === 'hcl';
}

/**
 * A straight RGBA colour's components in `space`. Like d3-color, a fully transparent colour has no
 * colour: all three components are NaN and interpolation takes the other end's.
 */
export function fromRgba(space: ColorSpace, c: readonly number[], out: Float64Array, o = 0): void {
  if (!(c[3]! > 0)) out[o] = out[o + 1] = out[o + 2] = NaN;
  else fromRgb(space, c[0]!, c[1]!, c[2]!, out, o);
}

/** sRGB (0..1) to the space's three components, written to out[o..o+2]. */
export function fromRgb(space: ColorSpace, r: number, g: number, b: number, out: Float64Array, o = 0): void {
  switch (space) {
    case 'rgb':
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      return;
    case 'hsl':
    case 'hsv': {
      const min = Math.min(r, g, b);
      const max = Math.max(r, g, b);
      const d = max - min;
      let h = NaN;
      if (d) {
        if (r === max) h = (g - b) / d + (g < b ? 6 : 0);
        else if (g === max) h = (b - r) / d + 2;
        else h = (r - g) / d + 4;
        h *= 60;
      }
      out[o] = h;
      if (space === 'hsl') {
        const l = (max + min) / 2;
        // d3: greys have saturation 0, except black and white whose saturation is undefined.
        out[o + 1] = d ? d / (l < 0.5 ? max + min : 2 - max - min) : l > 0 && l < 1 ? 0 : NaN;
        out[o + 2] = l;
      } else {
        // HSV by analogy: black (v = 0) has undefined saturation; other greys have 0.
        out[o + 1] = max > 0 ? d / max : NaN;
        out[o + 2] = max;
      }
      return;
    }
    case 'lab':
    case 'hcl': {
      const lr = rgb2lrgb(r);
      const lg = rgb2lrgb(g);
      const lb = rgb2lrgb(b);
      const y = xyz2lab((0.2225045 * lr + 0.7168786 * lg + 0.0606169 * lb) / Yn);
      let x = y;
      let z = y;
      if (!(lr === lg && lg === lb)) {
        x = xyz2lab((0.4360747 * lr + 0.3850649 * lg + 0.1430804 * lb) / Xn);
        z = xyz2lab((0.0139322 * lr + 0.0971045 * lg + 0.7141733 * lb) / Zn);
      }
      const L = 116 * y - 16;
      const A = 500 * (x - y);
      const B = 200 * (y - z);
      if (space === 'lab') {
        out[o] = L;
        out[o + 1] = A;
        out[o + 2] = B;
      } else if (A === 0 && B === 0) {
        out[o] = NaN;
        out[o + 1] = L > 0 && L < 100 ? 0 : NaN;
        out[o + 2] = L;
      } else {
        const h = Math.atan2(B, A) * DEG;
        out[o] = h < 0 ? h + 360 : h;
        out[o + 1] = Math.sqrt(A * A + B * B);
        out[o + 2] = L;
      }
      return;
    }
  }
}

function hsl2rgb(h: number, m1: number, m2: number): number {
  return h < 60 ? m1 + ((m2 - m1) * h) / 60 : h < 180 ? m2 : h < 240 ? m1 + ((m2 - m1) * (240 - h)) / 60 : m1;
}

function clamp01(x: number): number {
  return x > 0 ? (x < 1 ? x : 1) : 0; // NaN -> 0, like d3's formatter
}

/** The space's components back to sRGB, clamped to [0, 1], written to out[o..o+2]. */
export function toRgb(space: ColorSpace, c0: number, c1: number, c2: number, out: Float64Array | Float32Array, o = 0): void {
  let r: number, g: number, b: number;
  switch (space) {
    case 'rgb':
      r = c0;
      g = c1;
      b = c2;
      break;
    case 'hsl': {
      const h = (c0 % 360) + (c0 < 0 ? 360 : 0);
      const s = isNaN(h) || isNaN(c1) ? 0 : c1;
      const l = c2;
      const m2 = l + (l < 0.5 ? l : 1 - l) * s;
      const m1 = 2 * l - m2;
      r = hsl2rgb(h >= 240 ? h - 240 : h + 120, m1, m2);
      g = hsl2rgb(h, m1, m2);
      b = hsl2rgb(h < 120 ? h + 240 : h - 120, m1, m2);
      break;
    }
    case 'hsv': {
      const v = c2;
      const h = (c0 % 360) + (c0 < 0 ? 360 : 0);
      const s = isNaN(h) || isNaN(c1) ? 0 : c1;
      const f = (n: number) => {
        const k = (n + h / 60) % 6;
        return v - v * s * Math.max(0, Math.min(k, 4 - k, 1));
      };
      r = isNaN(h) ? v : f(5);
      g = isNaN(h) ? v : f(3);
      b = isNaN(h) ? v : f(1);
      break;
    }
    case 'lab':
    case 'hcl': {
      let L = c0,
        A = c1,
        B = c2;
      if (space === 'hcl') {
        // Hcl(h, c, l) -> Lab; undefined hue is achromatic (d3's hcl2lab).
        const h = c0,
          c = isNaN(c1) ? 0 : c1;
        L = c2;
        if (isNaN(h)) A = B = 0;
        else {
          A = Math.cos(h / DEG) * c;
          B = Math.sin(h / DEG) * c;
        }
      }
      const fy = (L + 16) / 116;
      const fx = isNaN(A) ? fy : fy + A / 500;
      const fz = isNaN(B) ? fy : fy - B / 200;
      const x = Xn * lab2xyz(fx);
      const y = Yn * lab2xyz(fy);
      const z = Zn * lab2xyz(fz);
      r = lrgb2rgb(3.1338561 * x - 1.6168667 * y - 0.4906146 * z);
      g = lrgb2rgb(-0.9787684 * x + 1.9161415 * y + 0.033454 * z);
      b = lrgb2rgb(0.0719453 * x - 0.2289914 * y + 1.4052427 * z);
      break;
    }
  }
  out[o] = clamp01(r);
  out[o + 1] = clamp01(g);
  out[o + 2] = clamp01(b);
}

/** d3's `nogamma`: linear, except that an undefined end takes the other end's value. */
function lerpDefined(a: number, b: number, t: number): number {
  const d = b - a;
  return d ? a + t * d : isNaN(a) ? b : a;
}

/** d3's `hue`: linear along the shorter arc; an undefined hue takes the other end's. */
function lerpHue(a: number, b: number, t: number): number {
  const d = b - a;
  return d ? a + t * (d > 180 || d < -180 ? d - 360 * Math.round(d / 360) : d) : isNaN(a) ? b : a;
}

/**
 * Interpolate two straight sRGB colours in `space` at t (0 = a, 1 = b) like d3-interpolate; alpha is
 * linear. `ca`, `cb`: the ends' components from fromRgba (precomputed once per segment).
 * Writes straight RGBA (clamped to [0, 1]) to out[o..o+3].
 */
export function interpolateComponents(
  space: ColorSpace,
  ca: Float64Array,
  cb: Float64Array,
  alphaA: number,
  alphaB: number,
  t: number,
  out: Float64Array | Float32Array,
  o = 0,
): void {
  const c0 = hasHue(space) ? lerpHue(ca[0]!, cb[0]!, t) : lerpDefined(ca[0]!, cb[0]!, t);
  toRgb(space, c0, lerpDefined(ca[1]!, cb[1]!, t), lerpDefined(ca[2]!, cb[2]!, t), out, o);
  out[o + 3] = clamp01(lerpDefined(alphaA, alphaB, t));
}

/** Convenience for tests and one-off use: interpolate two RGBA colours in `space`. */
export function interpolateColor(space: ColorSpace, a: readonly number[], b: readonly number[], t: number): [number, number, number, number] {
  const ca = new Float64Array(3);
  const cb = new Float64Array(3);
  fromRgba(space, a, ca);
  fromRgba(space, b, cb);
  const out = new Float64Array(4);
  interpolateComponents(space, ca, cb, a[3]!, b[3]!, t, out);
  return [out[0]!, out[1]!, out[2]!, out[3]!];
}
