// The op registry: every op module, by name.
import type { OpDef } from './types.js';
import { blend } from './blend.js';
import { blur } from './blur.js';
import { circles } from './circles.js';
import { colorRamp } from './color-ramp.js';
import { contour } from './contour.js';
import { density } from './density.js';
import { dem } from './dem.js';
import { expr } from './expr.js';
import { features } from './features.js';
import { fillSolid } from './fill-solid.js';
import { func } from './func.js';
import { math } from './math.js';
import { PLANNED } from './planned.js';
import { solid } from './solid.js';
import { strokeSolid } from './stroke-solid.js';
import { zoom } from './zoom.js';

const IMPLEMENTED: OpDef[] = [blend, blur, circles, colorRamp, contour, dem, density, expr, features, fillSolid, func, math, solid, strokeSolid, zoom];

export const OPS: ReadonlyMap<string, OpDef> = new Map(
  [...IMPLEMENTED, ...PLANNED.filter((p) => !IMPLEMENTED.some((o) => o.name === p.name))].map((op) => [op.name, op]),
);
