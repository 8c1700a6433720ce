// Expressions are compiled and evaluated by the maplibre style-spec; failures on a feature yield null quietly.
import { jest } from '@jest/globals';
import { compileExpr } from '../../src/expr/index.js';

describe('expressions', () => {
  test('numbers, colours (straight alpha), filters and ramps', () => {
    const n = compileExpr(['*', ['get', 'w'], ['zoom']], 'number', 'x');
    expect(n.evaluate(3, { type: 1, properties: { w: 2 } })).toBe(6);
    const c = compileExpr(['rgba', 255, 0, 0, 0.5], 'color', 'x');
    expect(c.evaluate(0)).toEqual([1, 0, 0, 0.5]);
    const f = compileExpr(['==', ['geometry-type'], 'LineString'], 'filter', 'x');
    expect(f.evaluate(0, { type: 2, properties: {} })).toBe(true);
    expect(f.evaluate(0, { type: 3, properties: {} })).toBe(false);
    const r = compileExpr(['interpolate', ['linear'], ['heatmap-density'], 0, 'rgba(0,0,0,0)', 1, '#ff0000'], 'ramp', 'x');
    // The style-spec interpolates straight-alpha RGBA: half-way from transparent black is dark red at half alpha.
    expect(r.evaluate(0, undefined, 0.5)).toEqual([0.5, 0, 0, 0.5]);
  });

  test('a runtime type error on one feature gives null without logging', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const n = compileExpr(['*', ['get', 'w'], 2], 'number', 'x');
    expect(n.evaluate(0, { type: 1, properties: { w: 'abc' } })).toBeNull();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  test('compile errors carry the style-spec message', () => {
    expect(() => compileExpr(['get'], 'number', 'x')).toThrow(/Expected/);
  });
});
