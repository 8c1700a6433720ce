// noise on the GPU: one pass (noise.wgsl / noise-raster.wgsl) over the CPU's sampling plan
// (plan.ts): per octave the origin cell and weight, per column and row the local coordinates, so
// the shader does f32 arithmetic on small numbers and the same integer hashing as the CPU.
import { CHANNELS, MAX_OCTAVES, noiseInputs, octaveSeed } from './plan.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const { plan, seed, raster } = noiseInputs(ctx);
    const seeds = new Uint32Array(MAX_OCTAVES * CHANNELS);
    for (let o = 0; o < plan.octaves; o++) for (let c = 0; c < CHANNELS; c++) seeds[c * MAX_OCTAVES + o] = octaveSeed(seed, c, o);
    const out = g.output(raster ? 'raster' : 'scalar-field', width, height);
    const shader = raster ? 'noise-raster' : 'noise';
    const u = g.uniforms(shader, { size: [width, height], octaves: plan.octaves, simplex: plan.kind === 'simplex' ? 1 : 0 });
    const lattice = { cells: g.storage(plan.cells), seeds: g.storage(seeds), cols: g.storage(plan.cols), rows: g.storage(plan.rows) };
    g.dispatch2d(shader, { u, ...lattice, dst: g.view(out) }, width, height);
    return out;
  },
};
