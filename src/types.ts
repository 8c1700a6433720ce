// Core data types shared by every stage. No Node imports here or anywhere in the core.

/** The six data kinds a node can produce (spec §1). */
export type Kind = 'features' | 'raster' | 'sprite' | 'brush' | 'scalar' | 'scalar-field';
export const KINDS: readonly Kind[] = ['features', 'raster', 'sprite', 'brush', 'scalar', 'scalar-field'];

/**
 * A pixel rectangle at a zoom. Coordinates are world pixels: the whole Web Mercator world is
 * `tileSize * 2^z` pixels wide, x grows east, y grows south (XYZ tiles, y = 0 at the north edge).
 * A tile z/x/y is the window {z, x0: x*tileSize, y0: y*tileSize, width: tileSize, height: tileSize}.
 */
export interface Window {
  z: number;
  x0: number;
  y0: number;
  width: number;
  height: number;
  tileSize: number;
  /**
   * Pixel density (MapLibre's @2x): an integer 1..4, default 1. Sizes in pixels (line widths,
   * radii, blur sigma; src/render/pixel-ratio.ts) are multiplied by it; tileSize is not.
   */
  pixelRatio?: number;
}

/** A node's canvas: the requested window grown by the node's margin on every side. */
export type Canvas = Window;

/** sRGB colour, straight (non-premultiplied) alpha, components in [0, 1]. */
export type RGBA = [number, number, number, number];

export type ScalarValue = number | boolean | RGBA;

/**
 * One feature group: the properties of a source feature and its geometry in world pixels at the
 * render zoom (see Window). Flat coordinate arrays, one per ring / line: [x0, y0, x1, y1, ...].
 * Polygons are [exterior, ...holes]; exterior rings wind clockwise on screen (positive shoelace
 * area with y down), holes counter-clockwise. Points are one flat array of all points.
 * `cutEnds` marks line ends that were made by clipping (no cap is drawn there): bit 0 = start,
 * bit 1 = end, per line; bits 2 / 3: the start / end cut lies on a vertical side of the clip
 * rectangle (x = the end's x), bits 4 / 5: on a horizontal side (src/geometry/clip.ts CUT_START...;
 * stroke-solid ends the piece on that line). Read them by mask; ops that keep an end keep its bits.
 * `cutBeyond`, when set, holds two numbers a line (start, end): where that end is a cut on a side,
 * how far, in pixels, the segment it was cut from ran on past it (Infinity where not known). The
 * neighbouring tile's piece continues along that stretch, so stroke-solid squares the end to its
 * cut line no farther along the line than that (src/geometry/stroke.ts Stroker.seam). Set by the
 * source sampler; ops that rebuild lines drop it.
 * `polygonCuts`, when set, parallels `polygons`: per ring, a flag per edge (vertex i to i+1,
 * wrapping) that is 1 where the edge was made by clipping to a source tile's square or near the
 * canvas (strokes and outlines skip it); an undefined ring has no such edge. Ops that rebuild
 * polygons drop it.
 */
export interface FeatureGroup {
  id?: number | string;
  properties: Record<string, unknown>;
  polygons: Float64Array[][];
  lines: Float64Array[];
  cutEnds?: Uint8Array;
  cutBeyond?: Float64Array;
  polygonCuts?: (Uint8Array | undefined)[][];
  points: Float64Array;
}

export interface Features {
  kind: 'features';
  groups: FeatureGroup[];
  /** GeoJSON sources only: every feature of the layer that passed the node, unclipped (src/geometry/whole.ts). */
  whole?: import('./geometry/whole.js').WholeLayer;
  /**
   * Tiled sources (MVT, PMTiles) only: each source tile's own copy of the layer's features that
   * passed the node (with the tile's buffer, unclipped by the canvas), each owned by its tile's
   * square; loaded on the first call. Ops that measure a feature use them to give every canvas the
   * same answer (src/sources/pieces.ts).
   */
  pieces?: (signal?: AbortSignal) => Promise<readonly import('./geometry/whole.js').WholeFeature[]>;
}

/** Canvas-sized RGBA, premultiplied alpha, sRGB-encoded values in [0, 1], row-major from the canvas's top-left. */
export interface Raster {
  kind: 'raster';
  width: number;
  height: number;
  data: Float32Array;
}

export interface ScalarField {
  kind: 'scalar-field';
  width: number;
  height: number;
  data: Float32Array;
}

/** A small image (not canvas-sized), same pixel convention as Raster. */
export interface Sprite {
  kind: 'sprite';
  width: number;
  height: number;
  data: Float32Array;
  /**
   * Texels per pixel at pixel ratio 1 (a MapLibre sprite icon's pixelRatio; default 1): ops that
   * draw a sprite at `scale` pixels per texel draw it at scale / pixelRatio.
   */
  pixelRatio?: number;
}

export interface Brush {
  kind: 'brush';
  tip: Sprite;
  widthPx: number;
  spacing: number;
  hardness: number;
  aa: number;
}

export interface Scalar {
  kind: 'scalar';
  value: ScalarValue;
}

export type Value = Features | Raster | ScalarField | Sprite | Brush | Scalar;

export type ValueOf<K extends Kind> = K extends 'features'
  ? Features
  : K extends 'raster'
    ? Raster
    : K extends 'scalar-field'
      ? ScalarField
      : K extends 'sprite'
        ? Sprite
        : K extends 'brush'
          ? Brush
          : Scalar;

/** A tile address. */
export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

export function tileWindow(t: TileAddress, tileSize = 256): Window {
  return { z: t.z, x0: t.x * tileSize, y0: t.y * tileSize, width: tileSize, height: tileSize, tileSize };
}

export function growWindow(w: Window, margin: number): Canvas {
  return { ...w, x0: w.x0 - margin, y0: w.y0 - margin, width: w.width + 2 * margin, height: w.height + 2 * margin };
}
