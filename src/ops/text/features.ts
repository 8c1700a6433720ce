// What the text op labels: each feature of its input as one LabelFeature in world pixels, taken
// from the most complete geometry the input holds, so that every canvas sees the same feature:
// - GeoJSON sources: whole features (lines measured from their own start, one pole per polygon);
// - tiled sources (MVT, PMTiles): each source tile's own piece, buffer included, with the tile's
//   square as its owner (a label is anchored only in the square of the tile that made it);
// - anything else (the output of a geometry op): the groups the canvas holds.
import type { ExprFeature } from '../../expr/index.js';
import { toWorld, toWorldEach, type WholeFeature, worldShifts } from '../../geometry/whole.js';
import type { Canvas, FeatureGroup, Features } from '../../types.js';

export type LineSource = 'whole' | 'piece' | 'clipped';

export interface LabelFeature {
  feature: ExprFeature;
  /** Points, world pixels. */
  points: ArrayLike<number>;
  lines: Float64Array[];
  polygons: Float64Array[][];
  /** Pieces: the owning tile's square [x0, y0, x1, y1), world pixels. */
  owner?: [number, number, number, number];
  /** Where the geometry comes from (how line anchors are chosen). */
  source: LineSource;
  /** The whole feature (for memoised measures), when there is one. */
  whole?: WholeFeature;
  /** World copy shift of this feature, pixels (0 unless it wraps). */
  shift: number;
}

function exprOf(w: { id?: number | string; properties: Record<string, unknown>; polygons: unknown[]; lines: unknown[] }): ExprFeature {
  return { type: w.polygons.length ? 3 : w.lines.length ? 2 : 1, id: w.id, properties: w.properties };
}

/** Which geometry a placement reads (the rest is not converted). */
export type Placement = 'point' | 'line' | 'polygon';

/**
 * The whole features (GeoJSON) or tile pieces (MVT, PMTiles) of `input`, if it has them: the most
 * complete geometry, the same objects for every canvas (plan.ts caches their labels on them).
 */
export async function wholeFeaturesOf(input: Features, signal?: AbortSignal): Promise<readonly WholeFeature[] | undefined> {
  return input.whole ? input.whole.features() : input.pieces ? await input.pieces(signal) : undefined;
}

/** The groups a canvas holds (the output of a geometry op) as label features. */
export function groupLabelFeatures(input: Features): LabelFeature[] {
  return input.groups.map((g: FeatureGroup) => ({ feature: exprOf(g), points: g.points, lines: g.lines, polygons: g.polygons, source: 'clipped', shift: 0 }));
}

/**
 * The world copies (shifts, pixels) of whole feature `w` that can have a label anchored within
 * `region` (world size W): those whose box meets the region.
 */
export function regionShifts(w: WholeFeature, region: Canvas, W: number): number[] {
  const x1 = region.x0 + region.width;
  const y1 = region.y0 + region.height;
  if (w.box[3] * W < region.y0 || w.box[1] * W > y1) return [];
  return worldShifts(w.box[0], w.box[2], region, 0).filter((dx) => !(w.box[2] * W + dx < region.x0 || w.box[0] * W + dx > x1));
}

/**
 * A whole feature (or piece) as a LabelFeature in world pixels (world size W, shifted by dx): its
 * geometry converted on first read, so a feature whose labels are already known (plan.ts, the
 * per-feature cache) costs no conversion. A class, not an object literal with getters: a literal's
 * getters are new closures on every call, each object then had a hidden class of its own, and
 * featureLabels, reading them, was deoptimised ('wrong map') again and again.
 */
class WholeLabelFeature implements LabelFeature {
  readonly feature: ExprFeature;
  readonly owner: [number, number, number, number] | undefined;
  readonly source: LineSource;
  readonly whole: WholeFeature;
  readonly shift: number;
  private readonly W: number;
  private readonly placement: Placement;
  private pointsW: ArrayLike<number> | undefined = undefined;
  private linesW: Float64Array[] | undefined = undefined;
  private polygonsW: Float64Array[][] | undefined = undefined;

  constructor(w: WholeFeature, W: number, dx: number, placement: Placement) {
    this.feature = exprOf(w);
    this.owner = w.owner ? [w.owner[0] * W + dx, w.owner[1] * W, w.owner[2] * W + dx, w.owner[3] * W] : undefined;
    this.source = w.owner ? 'piece' : 'whole';
    this.whole = w;
    this.shift = dx;
    this.W = W;
    this.placement = placement;
  }

  get points(): ArrayLike<number> {
    return (this.pointsW ??= this.placement === 'point' ? toWorld(this.whole.points, this.W, this.shift) : []);
  }

  get lines(): Float64Array[] {
    return (this.linesW ??= this.placement === 'line' ? toWorldEach(this.whole.lines, this.W, this.shift) : []);
  }

  get polygons(): Float64Array[][] {
    return (this.polygonsW ??= this.placement === 'line' ? this.whole.polygons.map((p) => toWorldEach(p, this.W, this.shift)) : []);
  }
}

/** A whole feature (or piece) as a LabelFeature in world pixels (WholeLabelFeature). */
export function wholeLabelFeature(w: WholeFeature, W: number, dx: number, placement: Placement): LabelFeature {
  return new WholeLabelFeature(w, W, dx, placement);
}

/** Whether world point (x, y) lies in a feature's owner square (always, without an owner). */
export function owns(f: LabelFeature, x: number, y: number): boolean {
  const o = f.owner;
  return !o || (x >= o[0] && x < o[2] && y >= o[1] && y < o[3]);
}
