// THE list of ops. Adding an op is one folder (src/ops/<op>/) and one entry here (CONTRIBUTING.md).
import type { OpDef } from './types.js';
import { blend } from './blend/index.js';
import { bbox } from './bbox/index.js';
import { blur } from './blur/index.js';
import { boundary } from './boundary/index.js';
import { buffer } from './buffer/index.js';
import { centroid } from './centroid/index.js';
import { brushFile } from './brush-file/index.js';
import { brushSolid } from './brush-solid/index.js';
import { stroke } from './stroke/index.js';
import { stamp } from './stamp/index.js';
import { fillPattern } from './fill-pattern/index.js';
import { brightnessContrast } from './brightness-contrast/index.js';
import { channelShuffle } from './channel-shuffle/index.js';
import { colorToAlpha } from './color-to-alpha/index.js';
import { threshold } from './threshold/index.js';
import { posterize } from './posterize/index.js';
import { circle } from './circle/index.js';
import { dither } from './dither/index.js';
import { circles } from './circles/index.js';
import { colorRamp } from './color-ramp/index.js';
import { contour } from './contour/index.js';
import { convexHullOp } from './convex-hull/index.js';
import { dash } from './dash/index.js';
import { density } from './density/index.js';
import { dilate } from './dilate/index.js';
import { displace } from './displace/index.js';
import { edgeDetect } from './edge-detect/index.js';
import { dem } from './dem/index.js';
import { densify } from './densify/index.js';
import { dotDensity } from './dot-density/index.js';
import { erode } from './erode/index.js';
import { expr } from './expr/index.js';
import { featureBoolean } from './feature-boolean/index.js';
import { features } from './features/index.js';
import { fillSolid } from './fill-solid/index.js';
import { func } from './func/index.js';
import { hillshade } from './hillshade/index.js';
import { math } from './math/index.js';
import { noise } from './noise/index.js';
import { solid } from './solid/index.js';
import { strokeSolid } from './stroke-solid/index.js';
import { text } from './text/index.js';
import { icon } from './icon/index.js';
import { raster } from './raster/index.js';
import { translate } from './translate/index.js';
import { zoom } from './zoom/index.js';

/** Every implemented op, one per line. */
export const OP_LIST: readonly OpDef[] = [
  blend,
  bbox,
  blur,
  boundary,
  buffer,
  centroid,
  brushFile,
  brushSolid,
  stroke,
  stamp,
  fillPattern,
  brightnessContrast,
  channelShuffle,
  colorToAlpha,
  threshold,
  posterize,
  circle,
  dither,
  circles,
  colorRamp,
  contour,
  convexHullOp,
  dash,
  dem,
  erode,
  density,
  densify,
  dotDensity,
  dilate,
  displace,
  edgeDetect,
  expr,
  featureBoolean,
  features,
  fillSolid,
  text,
  func,
  hillshade,
  math,
  noise,
  solid,
  icon,
  raster,
  strokeSolid,
  translate,
  zoom,
];

export const OPS: ReadonlyMap<string, OpDef> = new Map(OP_LIST.map((op) => [op.name, op]));
