// GPU modules by op name. An op missing here runs its CPU kernel inside a GPU render.
import { blend } from './blend.js';
import { blur } from './blur.js';
import { circles } from './circles.js';
import { colorRamp } from './color-ramp.js';
import { density } from './density.js';
import { fillSolid } from './fill-solid.js';
import { solid } from './solid.js';
import { strokeSolid } from './stroke-solid.js';
import type { GpuOp } from './types.js';

const MODULES: GpuOp[] = [blend, blur, circles, colorRamp, density, fillSolid, solid, strokeSolid];

export const GPU_OPS: ReadonlyMap<string, GpuOp> = new Map(MODULES.map((m) => [m.name, m]));
