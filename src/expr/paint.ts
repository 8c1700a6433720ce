// Per-group paint values of the drawing ops: a `*-expr` field evaluated for each feature group,
// falling back to the node's constant when the expression is absent or yields no value.
import type { FeatureGroup, RGBA } from '../types.js';
import { exprFeature } from '../ops/features/index.js';
import type { OpContext } from '../ops/types.js';

export type GroupValue<T> = (g: FeatureGroup) => T;

/**
 * A value per group from `exprField`, else `constant` (no expression, or a result `accept` refuses).
 * Feature-constant expressions run once.
 */
function groupValue<T>(ctx: OpContext, exprField: string, constant: T, accept: (v: unknown) => v is T): GroupValue<T> {
  const e = ctx.expr(exprField);
  if (!e) return () => constant;
  const z = ctx.zoom;
  const ev = (g?: FeatureGroup): T => {
    const v = e.evaluate(z, g ? exprFeature(g) : undefined);
    return accept(v) ? v : constant;
  };
  if (e.featureConstant) {
    const v = ev();
    return () => v;
  }
  return ev;
}

const isNumber = (v: unknown): v is number => typeof v === 'number';
const isColor = (v: unknown): v is RGBA => Array.isArray(v);

/** A number per group from `exprField`, else `constant`. */
export function groupNumber(ctx: OpContext, exprField: string, constant: number): GroupValue<number> {
  return groupValue(ctx, exprField, constant, isNumber);
}

/** A straight-alpha colour per group from `exprField`, else `constant`. */
export function groupColor(ctx: OpContext, exprField: string, constant: RGBA): GroupValue<RGBA> {
  return groupValue(ctx, exprField, constant, isColor);
}

export const BLACK: RGBA = [0, 0, 0, 1];

export function clamp01(v: number): number {
  return v > 0 ? (v < 1 ? v : 1) : 0;
}

/**
 * Static bound of a paint size for the canvas padding: a `*-expr` is bounded by `<field>-max`
 * only; the plain field by its literal, its `$param`'s max or `<field>-max` (for an `@node`).
 * Without any, DEFAULT_SIZE_BOUND.
 */
export function sizeBound(bound: (f: string) => number | undefined, node: Record<string, unknown>, field: string): number {
  const max = node[`${field}-max`];
  if (node[`${field}-expr`] !== undefined) return typeof max === 'number' ? max : DEFAULT_SIZE_BOUND;
  return bound(field) ?? (typeof max === 'number' ? max : DEFAULT_SIZE_BOUND);
}

/** Assumed bound (pixels) of a width or radius that has no static one. */
export const DEFAULT_SIZE_BOUND = 16;

/**
 * The explicit `<field>-max` of a node (runtime values clamp to it), or Infinity. At a pixel ratio
 * (@2x) a max in pixels (declared `unit: 'px'`, as the size it bounds) comes scaled by ctx.num.
 */
export function explicitMax(ctx: Pick<OpContext, 'node' | 'num'>, field: string): number {
  return typeof ctx.node[`${field}-max`] === 'number' ? ctx.num(`${field}-max`) : Infinity;
}
