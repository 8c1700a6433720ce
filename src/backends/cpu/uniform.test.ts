// What a paint kernel reports at its end (reportPaint): nothing composited marks its own raster
// transparent, or leaves a target's mark as it was; something composited reports nothing.
import { markUniform, reportPaint, takeUntouched, uniformOf } from './uniform.js';

test('reportPaint: a raster of its own that got nothing is marked transparent; one that got paint is not marked', () => {
  const empty = new Float32Array(16);
  reportPaint(empty, false, false);
  expect(Array.from(uniformOf(empty)!)).toEqual([0, 0, 0, 0]);
  expect(takeUntouched(empty)).toBe(false);
  const painted = new Float32Array(16);
  reportPaint(painted, false, true);
  expect(uniformOf(painted)).toBeUndefined();
});

test('reportPaint: a target that got nothing is reported untouched (the report is taken once); one that got paint is not', () => {
  const target = new Float32Array(16).fill(0.5);
  markUniform(target, [0.5, 0.5, 0.5, 0.5]);
  reportPaint(target, true, false);
  expect(takeUntouched(target)).toBe(true);
  expect(takeUntouched(target)).toBe(false);
  expect(Array.from(uniformOf(target)!)).toEqual([0.5, 0.5, 0.5, 0.5]);
  const other = new Float32Array(16);
  reportPaint(other, true, true);
  expect(takeUntouched(other)).toBe(false);
});
