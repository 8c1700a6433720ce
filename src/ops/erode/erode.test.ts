// erode: min over the square (the shared vHGW kernel is tested against brute force in
// src/ops/dilate/dilate.test.ts); here the opening property and CPU/GPU parity.
import { morph } from '../dilate/morph.js';
import { Renderer, type Window } from '../../index.js';
import { checkParity, gpuDescribe, randomFeatures, testWindow } from '../../../tests/gpu/harness.js';

describe('erode', () => {
  test('erode then dilate (an opening) keeps a wide square and removes a thin line', () => {
    // 40 x 40 source: a 12 x 12 square of alpha 1 and a 1 px line; r = 2, pad 4 for both passes.
    const sw = 40;
    const src = new Float32Array(sw * sw * 4);
    const set = (x: number, y: number) => src.set([1, 1, 1, 1], (y * sw + x) * 4);
    for (let y = 10; y < 22; y++) for (let x = 8; x < 20; x++) set(x, y);
    for (let x = 4; x < 36; x++) set(x, 30);
    const e = morph(src, sw, 2, sw - 4, sw - 4, 2, 'min');
    const o = morph(e, sw - 4, 2, sw - 8, sw - 8, 2, 'max');
    // o pixel (x, y) is source pixel (x + 4, y + 4).
    const at = (x: number, y: number) => o[((y - 4) * (sw - 8) + x - 4) * 4 + 3];
    for (let y = 10; y < 22; y++) for (let x = 8; x < 20; x++) expect(at(x, y)).toBe(1);
    expect(at(7, 12)).toBe(0);
    for (let x = 6; x < 34; x++) expect(at(x, 30)).toBe(0);
  });
});

const W: Window = testWindow(64);

gpuDescribe('CPU/GPU parity', () => {
  test('erode of blended fills and strokes, radius 2', async () => {
    const style = {
      output: 'out',
      sources: { src: { type: 'geojson', data: randomFeatures(21, W, { polygons: 10, lines: 5 }, 24) } },
      nodes: {
        f: { op: 'features', source: 'src' },
        shapes: { op: 'fill-solid', features: '@f', 'fill-expr': ['match', ['get', 'k'], 0, '#ff8800c0', 1, '#2288ff', '#33aa33e0'] },
        lines: { op: 'stroke-solid', features: '@f', width: 3, color: '#202020' },
        both: { op: 'blend', base: '@shapes', over: '@lines' },
        out: { op: 'erode', input: '@both', 'radius-px': 2 },
      },
    };
    expect(Renderer.create(style)).toBeDefined();
    await checkParity('erode r2', style, W);
  });
});
