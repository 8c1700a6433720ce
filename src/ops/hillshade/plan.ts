// What both hillshade kernels share: the ground resolution of every row and GDAL's constants.
// The shading is `gdaldem hillshade` (GDAL's GDALHillshadeAlg / GDALHillshadeMultiDirectionalAlg,
// Horn's gradient), with the horizontal pixel size taken at each row's latitude.
import type { Canvas, RGBA } from '../../types.js';
import type { OpContext } from '../types.js';

/** Equatorial circumference of the Web Mercator sphere, metres. */
const EARTH_CIRCUMFERENCE = 40075016.686;

/**
 * 1 / (ground metres per pixel) of each canvas row, at the latitude of the row's pixel centres:
 * resolution = C cos(lat) / (tileSize 2^z), and 1 / cos(lat) = cosh(pi (1 - 2 y / worldSize)).
 */
export function rowInverseResolution(canvas: Canvas): Float64Array {
  const world = canvas.tileSize * 2 ** canvas.z;
  const inv = new Float64Array(canvas.height);
  for (let j = 0; j < canvas.height; j++) {
    const y = canvas.y0 + j + 0.5;
    inv[j] = (world * Math.cosh(Math.PI * (1 - (2 * y) / world))) / EARTH_CIRCUMFERENCE;
  }
  return inv;
}

/** GDAL's precomputed terms (gdaldem_lib.cpp GDALCreateHillshadeData / ...MultiDirectionalData). */
export interface ShadeTerms {
  multidirectional: boolean;
  /** (z / 8)^2: Horn's 1/8 folded into the z factor, as GDAL does. */
  squareZ: number;
  sinAlt254: number;
  cosAzCosAltZ254: number;
  sinAzCosAltZ254: number;
  sinAlt127: number;
  cosAltZ127: number;
  cos225CosAltZ127: number;
}

export function shadeTerms(azimuthDeg: number, altitudeDeg: number, zFactor: number, multidirectional: boolean): ShadeTerms {
  const d2r = Math.PI / 180;
  const zf = zFactor / 8;
  const cosAltZ = Math.cos(altitudeDeg * d2r) * zf;
  const az = azimuthDeg * d2r;
  return {
    multidirectional,
    squareZ: zf * zf,
    sinAlt254: 254 * Math.sin(altitudeDeg * d2r),
    cosAzCosAltZ254: 254 * Math.cos(az) * cosAltZ,
    sinAzCosAltZ254: 254 * Math.sin(az) * cosAltZ,
    sinAlt127: 127 * Math.sin(altitudeDeg * d2r),
    cosAltZ127: 127 * cosAltZ,
    cos225CosAltZ127: 127 * Math.cos(225 * d2r) * cosAltZ,
  };
}

/**
 * GDAL's hillshade value (1..255) for Horn's gradient (x, y), already divided by the pixel size
 * (ew and ns, the ns one negative for north-up rows).
 */
export function gdalShade(t: ShadeTerms, x: number, y: number): number {
  const xx = x * x,
    yy = y * y,
    q = xx + yy;
  if (!t.multidirectional) {
    const c = (t.sinAlt254 - (y * t.cosAzCosAltZ254 - x * t.sinAzCosAltZ254)) / Math.sqrt(1 + t.squareZ * q);
    return c <= 0 ? 1 : 1 + c;
  }
  if (q === 0) return 1 + t.sinAlt254;
  const v225 = Math.max(0, t.sinAlt127 + (x - y) * t.cos225CosAltZ127);
  const v270 = Math.max(0, t.sinAlt127 - x * t.cosAltZ127);
  const v315 = Math.max(0, t.sinAlt127 + (x + y) * t.cos225CosAltZ127);
  const v360 = Math.max(0, t.sinAlt127 - y * t.cosAltZ127);
  const w225 = 0.5 * q - x * y;
  const w315 = q - w225;
  return 1 + (w225 * v225 + xx * v270 + w315 * v315 + yy * v360) / q / Math.sqrt(1 + t.squareZ * q);
}

/** The colours of the shade: premultiplied shadow and highlight (interpolated by value / 255) and accent. */
export interface ShadeColours {
  shadow: RGBA;
  highlight: RGBA;
  accent: RGBA;
}

/** The shade's colour ramp, colour = shadow + (highlight - shadow) v / 255: shadow r, g, b, a, then highlight - shadow. */
export function shadeRamp(col: ShadeColours): [number, number, number, number, number, number, number, number] {
  const [sr, sg, sb, sa] = col.shadow;
  const [hr, hg, hb, ha] = col.highlight;
  return [sr, sg, sb, sa, hr - sr, hg - sg, hb - sb, ha - sa];
}

export const premultiply = (c: RGBA): RGBA => [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]];

/** The node's GDAL terms and premultiplied colours (read once per render by either kernel). */
export function shadeInputs(ctx: OpContext): { terms: ShadeTerms; colours: ShadeColours } {
  const terms = shadeTerms(ctx.num('azimuth'), Math.min(90, Math.max(0, ctx.num('altitude'))), ctx.num('z-factor'), ctx.bool('multidirectional', false));
  const colours = {
    shadow: premultiply(ctx.color('shadow-color', [0, 0, 0, 1] as RGBA)),
    highlight: premultiply(ctx.color('highlight-color', [1, 1, 1, 1] as RGBA)),
    accent: premultiply(ctx.color('accent-color', [0, 0, 0, 0] as RGBA)),
  };
  return { terms, colours };
}
