// blur: Gaussian blur in premultiplied space; padding 3 sigma. The declaration; the kernels are
// cpu.ts and gpu.ts (+ blur.wgsl), sharing plan.ts.
import { num, numRef } from '../../style/fields.js';
import { filterOp } from '../declare.js';
import { blurCpu } from './cpu.js';
import { gpu } from './gpu.js';

export const blur = filterOp({
  name: 'blur',
  description: 'Gaussian blur',
  fields: {
    sigma: numRef({ min: 0, unit: 'px', description: 'standard deviation in pixels' }),
    'sigma-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of sigma when it is an @node port',
    }),
  },
  required: ['sigma'],
  paddingFields: ['sigma'],
  pad: (bound) => Math.ceil(3 * (bound('sigma') ?? 0)),
  gpu,
  cpu: blurCpu,
});
