// brush-solid: the brush value (spec §2.5 / §8 limits), and its dabs drawn by stroke.
import { CpuBackend, Renderer, type Brush, type Window } from '../../index.js';
import { brushSolid } from './index.js';
import type { OpContext } from '../types.js';
import { strokedLine } from '../../../tests/helpers/op-window.js';

function brushOf(node: Record<string, unknown>): Brush {
  const spec = { op: 'brush-solid', ...node };
  const ctx = {
    id: 'b',
    node: spec,
    num: (f: string, fb?: number) =>
      (spec[f as keyof typeof spec] as unknown as number | undefined) ?? fb ?? ((brushSolid.fields[f] as { default?: number }).default as number),
    color: () => [0.2, 0.4, 0.6, 0.5],
  } as unknown as OpContext;
  return brushSolid.cpu!(ctx) as Brush;
}

const style = (brush: Record<string, unknown>) => strokedLine({ op: 'brush-solid', ...brush });

describe('brush-solid', () => {
  test('a 1 x 1 tip of its colour (premultiplied), width, spacing = width / (2 dabs-per-radius), hardness and aa', () => {
    const b = brushOf({ 'width-px': 6, color: '#336699', hardness: 0.3, aa: 0.5, 'dabs-per-radius': 2 });
    expect({ ...b, tip: { ...b.tip, data: Array.from(b.tip.data) } }).toEqual({
      kind: 'brush',
      tip: { kind: 'sprite', width: 1, height: 1, data: [0.1, 0.2, 0.3, 0.5].map((v) => expect.closeTo(v, 6)) },
      widthPx: 6,
      spacing: 0.25,
      hardness: 0.3,
      aa: 0.5,
    });
    // Defaults: hard, 1 px anti-aliasing, 4 dabs per radius.
    expect(brushOf({ 'width-px': 1, color: '#000000' })).toMatchObject({ hardness: 1, aa: 1, spacing: 1 / 8 });
  });

  test('the limits of spec §8 fail validation with the field pointer', () => {
    expect(() => Renderer.create(style({ 'width-px': 0.3, color: '#000000' }))).toThrow(/\/nodes\/b\/width-px/);
    expect(() => Renderer.create(style({ 'width-px': 2, color: '#000000', 'dabs-per-radius': 0.4 }))).toThrow(/\/nodes\/b\/dabs-per-radius/);
    expect(() => Renderer.create(style({ 'width-px': 2 }))).toThrow(/color/);
    expect(() => Renderer.create(style({ 'width-px': 0.4, color: '#000000', 'dabs-per-radius': 0.5 }))).not.toThrow();
  });

  test('a brush is not a raster: it cannot be the output, and renders on the CPU in a stroke', async () => {
    expect(() => Renderer.create({ ...style({ 'width-px': 2, color: '#000000' }), output: 'b' })).toThrow(/produces brush/);
    const r = Renderer.create(style({ 'width-px': 4, color: '#ff0000' }));
    const w: Window = { z: 2, x0: 480, y0: 496, width: 64, height: 32, tileSize: 256 };
    const { raster } = await r.renderWindow(w, r.params(), { backend: new CpuBackend() });
    // The line lies on the equator (world y 512): rows 510..513 red.
    expect(Array.from(raster.data.subarray((14 * 64 + 32) * 4, (14 * 64 + 32) * 4 + 4))).toEqual([1, 0, 0, 1]);
    expect(raster.data[(10 * 64 + 32) * 4 + 3]).toBe(0);
  });
});
