// Heatmap golden cases (a point density through a colour ramp) against a reference we did not
// write: the density in closed form (spec: sum over points of exp(-0.5 * 3^2 * (d / radius)^2) /
// sqrt(2 pi) within the radius, at pixel centres, points placed by the Web Mercator closed form)
// and the colour between stops from d3-interpolate (rgb, hsl, lab, hcl) and d3-hsv (hsv), the
// libraries that define those interpolations on the web.
// Bound: 1.5/255 on premultiplied 8-bit values, every pixel but those whose centre lies within
// 0.05 px of a point's support circle (there the kernel steps by exp(-4.5) / sqrt(2 pi) = 0.0044,
// and whether the centre is in is a matter of the point's last bits: sources hold positions to
// 1/16 px). d3 rounds each channel to an integer (0.5); the op bakes each stop segment into a table
// interpolated linearly (under 0.5/255 on these ramps); 8-bit output rounding adds 0.5. Measured:
// at most 1.0/255.
import { heatmapReference } from './density.js';
import { compareWithReference, goldenImages } from './harness.js';

const BOUND = 1.5;

describe.each(['color-ramp-rgb', 'color-ramp-hsl', 'color-ramp-hsv', 'color-ramp-lab', 'color-ramp-hcl', 'heatmap-stops'])('%s', (name) => {
  test(`closed-form density through d3's interpolation: within ${BOUND}/255 on every pixel off the support edges`, async () => {
    const { ref } = heatmapReference(name);
    const g = await goldenImages(name);
    for (const [which, img] of [
      ['expected.png', g.expected],
      ['render', g.rendered],
    ] as const) {
      const c = compareWithReference(img, ref, BOUND);
      expect({ name, which, mostCompared: c.compared > 0.95 * 65536, beyond: c.beyond, first: c.first }).toEqual({
        name,
        which,
        mostCompared: true,
        beyond: 0,
        first: undefined,
      });
    }
  });
});
