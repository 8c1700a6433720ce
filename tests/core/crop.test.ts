// cropData (src/backends/cpu/raster.ts): the crop of a canvas-sized buffer is its values where the
// target lies over the source and 0 elsewhere, whatever the pooled buffer it is written into held
// before (a crop inside its source takes one not zeroed first). Witness: the definition, each value
// read on its own here.
import { cropData } from '../../src/backends/cpu/raster.js';
import { acquire, release } from '../../src/backends/cpu/pool.js';
import type { Canvas } from '../../src/types.js';

const canvas = (x0: number, y0: number, width: number, height: number): Canvas => ({ z: 3, x0, y0, width, height, tileSize: 256 });

describe('cropData', () => {
  test('inside, across the edges and outside the source, into pooled buffers that held other values', () => {
    const from = canvas(100, 200, 90, 70);
    for (const channels of [1, 4]) {
      const data = acquire(from.width * from.height * channels, false);
      for (let i = 0; i < data.length; i++) data[i] = i * 0.25 - 7;
      for (const to of [canvas(110, 205, 64, 64), canvas(100, 200, 90, 69), canvas(80, 190, 64, 64), canvas(150, 240, 64, 64), canvas(300, 300, 64, 64)]) {
        // The pool's next buffer of that size holds NaN everywhere.
        const dirty = acquire(to.width * to.height * channels, false);
        dirty.fill(Number.NaN);
        release(dirty);
        const out = cropData(data, channels, from, to);
        let diff = 0;
        for (let y = 0; y < to.height; y++)
          for (let x = 0; x < to.width; x++)
            for (let c = 0; c < channels; c++) {
              const sx = x + to.x0 - from.x0,
                sy = y + to.y0 - from.y0;
              const want = sx >= 0 && sy >= 0 && sx < from.width && sy < from.height ? data[(sy * from.width + sx) * channels + c]! : 0;
              if (!Object.is(out[(y * to.width + x) * channels + c], want)) diff++;
            }
        expect({ channels, to: [to.x0, to.y0], diff }).toEqual({ channels, to: [to.x0, to.y0], diff: 0 });
        release(out);
      }
      release(data);
    }
  });
});
