// noise on the GPU: one pass (noise.wgsl) over the CPU's octave plan (plan.ts): per octave the
// origin cell (u32) and small local offset, so the shader does f32 arithmetic on small numbers and
// the same integer hashing as the CPU.
import { CHANNELS, MAX_OCTAVES, noiseInputs, octaveSeed } from './plan.js';
import { Uniforms } from '../../backends/gpu/uniforms.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';

export const gpu: GpuOp = {
  encode(g, ctx) {
    const { width, height } = ctx.canvas;
    const { octs, kind, seed, raster } = noiseInputs(ctx);
    const floats = new Float32Array(octs.length * 4);
    const ints = new Uint32Array(octs.length * 2);
    const seeds = new Uint32Array(MAX_OCTAVES * CHANNELS);
    octs.forEach((o, i) => {
      floats.set([o.rx, o.ry, o.step, o.weight], i * 4);
      ints.set([o.cx, o.cy], i * 2);
      for (let c = 0; c < CHANNELS; c++) seeds[c * MAX_OCTAVES + i] = octaveSeed(seed, c, i);
    });
    const out = g.output(raster ? 'raster' : 'scalar-field', width, height);
    const u = new Uniforms().vec2u(width, height).u32s(octs.length, kind === 'simplex' ? 1 : 0);
    g.dispatch2d(raster ? 'noise-raster' : 'noise', [g.uniform(u), g.storage(floats), g.storage(ints), g.storage(seeds), g.view(out)], width, height);
    return out;
  },
};
