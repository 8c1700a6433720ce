// blur: Gaussian blur in premultiplied space; padding 3 sigma. The declaration; the kernels are
// cpu.ts and gpu.ts (+ blur.wgsl), sharing plan.ts.
import { num, numRef } from '../../style/fields.js';
import { filterOp } from '../declare.js';
import { blurCpu, readMargin } from './cpu.js';
import { decimationFactor } from './plan.js';
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
  // The kernel reads readMargin(sigma) px: ceil(3 sigma) on the exact path, r + 4k + 2 on the
  // decimated one (a bound whose pad is that: ceil(3 (m - 1/2) / 3) = m).
  valueBound: (_field, sigma) => (decimationFactor(sigma) === 1 ? Math.max(0, sigma) : (readMargin(sigma) - 0.5) / 3),
  gpu,
  cpu: blurCpu,
});
