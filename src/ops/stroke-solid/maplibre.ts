// stroke-solid with `profile: "maplibre"`: lines as MapLibre GL JS draws them, for converted
// MapLibre styles (src/maplibre). Its line geometry (line_bucket.ts: segment quads, miter, bevel,
// flipped bevel, pie-sliced "fakeround" and round joins, butt/square/round caps, extra vertices
// 15 px before and after sharp corners, extrusions stored in 1/63ths) and its line shader
// (line.vertex.glsl / line.fragment.glsl: the casing gap, the offset, the across-line fade over
// blur + 1 px) written out: every triangle is sampled at pixel centres (no multisampling, as
// MapLibre's render tests draw) and blended over what is there, one after the other, so joins
// and self-overlaps of a translucent line are drawn twice, and line ends are cut without
// anti-aliasing along the line. Width, gap, offset, blur, colour, opacity, join and cap may vary
// per feature. Witness: MapLibre's render tests (tests/maplibre, its expected images).
// Both backends run this kernel (gpu.ts hands the profile to the CPU): the triangles must be
// blended in order, one after the other, which the GPU module's coverage passes (the union of a
// shape's pieces) do not do. The triangle fill runs in WebAssembly (maplibre-mesh.wat, the same
// f64 operations as drawMeshTs, its reference) where the mesh and the canvas lie in the canvas arena.
import type { Canvas, FeatureGroup, Features, Raster, RGBA } from '../../types.js';
import { hypot } from '../../geometry/hypot.js';
import { type LineMeasure, type LinePart, visitLineParts, wholeGroup, type WholeFeature } from '../../geometry/whole.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { reportPaint } from '../../backends/cpu/uniform.js';
import { CUT_END, CUT_START, cutAxis } from '../../geometry/clip.js';
import { BLACK, clamp01, explicitMax, groupColor, groupNumber } from '../../expr/paint.js';
import { exprFeature } from '../features/index.js';
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { wasmKernels } from '../../util/wasm-kernels.js';
import type { OpContext } from '../types.js';

/** Extrusions are stored in bytes as 63ths of the half width (line_bucket.ts EXTRUDE_SCALE). */
const EXTRUDE_SCALE = 63;
/** Corners sharper than 75 degrees get extra vertices SHARP_CORNER_OFFSET px before and after. */
const COS_HALF_SHARP_CORNER = Math.cos((75 / 2) * (Math.PI / 180));
const SHARP_CORNER_OFFSET = 15;
/** Angle per triangle of a pie-sliced round join. */
const DEG_PER_TRIANGLE = 20;
/** The longest distance along a line the vertex buffer holds, in tile units (8192 a tile). */
const MAX_LINE_DISTANCE = 2 ** 14 / 0.5;

/** A vertex's line distance as stored: whole halves of tile units (LINE_DISTANCE_SCALE, 15 bits), read back doubled. */
function storedDistance(d: number, unitsPerPx: number): number {
  return (2 * Math.trunc((d * unitsPerPx) / 2)) / unitsPerPx;
}

type Join = 'miter' | 'bevel' | 'round';
type Cap = 'butt' | 'round' | 'square';

/** One feature's line style, in render pixels. */
interface Style {
  join: Join;
  cap: Cap;
  miterLimit: number;
  roundLimit: number;
  /** The shader's outset and inset (v_width2), the offset (negated, as the shader does). */
  outset: number;
  inset: number;
  offset: number;
  /** Sharp-corner vertex distance in render pixels. */
  sharp: number;
}

/**
 * The triangles of one feature's lines, as MapLibre's bucket builds them: vertex positions
 * (already extruded and offset, as the vertex shader places them) and the interpolated normal
 * (v_normal: x 1 at round-cap vertices, y +-1 on the two sides).
 */
class Mesh {
  px: Float64Array = new Float64Array(1024);
  py: Float64Array = new Float64Array(1024);
  nx: Float64Array = new Float64Array(1024);
  ny: Float64Array = new Float64Array(1024);
  /** Distance along the line (render pixels) at each vertex, as stored (v_linesofar). */
  ld: Float64Array = new Float64Array(1024);
  /**
   * The canvas arena's block that holds the arrays (resize(), first on reset()), where
   * maplibre-mesh.wat reads them; undefined: ordinary arrays (no arena, or no room in it), drawn by
   * drawMeshTs.
   */
  block: Float32Array | undefined = undefined;
  private placed = false;
  n = 0;
  /** The distance along the current line, render pixels; MapLibre's tile units per render pixel. */
  dist = 0;
  unitsPerPx = 16;
  tri: Int32Array = new Int32Array(1536);
  nt = 0;
  private e1 = -1;
  private e2 = -1;
  style!: Style;

  reset(): void {
    this.n = 0;
    this.nt = 0;
    if (!this.placed) {
      // On first use, not at import: a thread sizes its arena before first using it.
      this.placed = true;
      this.resize(this.px.length, this.tri.length);
    }
  }

  /**
   * Room for `v` vertices and `t` triangle indices, the first n and nt kept: one block of the
   * canvas arena for the six arrays, else (no arena or no room) one ordinary buffer.
   */
  private resize(v: number, t: number): void {
    const old = this.block;
    const block = arenaAlloc(10 * v + t, false);
    const buf = block ? block.buffer : new ArrayBuffer(40 * v + 4 * t);
    const at = block ? block.byteOffset : 0;
    const f64 = (k: number, a: Float64Array) => {
      const b = new Float64Array(buf, at + 8 * v * k, v);
      b.set(a.subarray(0, this.n));
      return b;
    };
    this.px = f64(0, this.px);
    this.py = f64(1, this.py);
    this.nx = f64(2, this.nx);
    this.ny = f64(3, this.ny);
    this.ld = f64(4, this.ld);
    const tri = new Int32Array(buf, at + 40 * v, t);
    tri.set(this.tri.subarray(0, this.nt));
    this.tri = tri;
    this.block = block;
    if (old) arenaFree(old);
  }

  /** Where the next line's distance starts (a piece continuing another one cut at a tile edge). */
  startDist = 0;
  /**
   * The vertex being added is a cut start (a part of a longer line cut at the canvas or at its
   * tile's square): the distance does not start again there (current()); its part's startDist
   * already counts from where MapLibre's walk of the whole line last started it (partsInRect).
   */
  holdDist = false;
  /**
   * The stored distance (storedDistance) of a part's cut start and cut end as MapLibre's own
   * vertices on either side give it there (LinePart.ld0, ld1), NaN where not known; `ending`:
   * the vertex being added is the part's cut end.
   */
  ldStart = Number.NaN;
  ldEnd = Number.NaN;
  ending = false;

  startLine(): void {
    this.e1 = this.e2 = -1;
    this.dist = this.startDist;
  }

  /** updateDistance: the distance along the line grows by the segment from a to b. */
  advance(ax: number, ay: number, bx: number, by: number): void {
    this.dist += hypot(bx - ax, by - ay);
  }

  private grow(): void {
    this.resize(this.px.length * 2, this.tri.length);
  }

  /**
   * half's vertex and extrusion (x, y, extX, extY), set by its caller: as fields, not arguments,
   * so that optimised code passes no boxed numbers per vertex.
   */
  hx = Number.NaN;
  hy = Number.NaN;
  ex = Number.NaN;
  ey = Number.NaN;

  /**
   * addHalfVertex: one vertex of the strip (at hx, hy, extruded by ex, ey), joined to the last
   * vertex of each side; `dir` the sign (-1, 0, 1) of the extrusion's shift along the line.
   */
  half(round: boolean, up: boolean, dir: number): void {
    if (this.n === this.px.length) this.grow();
    const s = this.style;
    const x = this.hx;
    const y = this.hy;
    const qx = Math.round(EXTRUDE_SCALE * this.ex) / EXTRUDE_SCALE;
    const qy = Math.round(EXTRUDE_SCALE * this.ey) / EXTRUDE_SCALE;
    const u = 0.5 * dir;
    const t = 1 - Math.abs(u);
    const o = s.offset * (up ? 1 : -1);
    const e = this.n++;
    this.px[e] = x + o * (qx * t - qy * u) + s.outset * qx;
    this.py[e] = y + o * (qx * u + qy * t) + s.outset * qy;
    this.nx[e] = round ? 1 : 0;
    this.ny[e] = up ? 1 : -1;
    // A cut end's vertex stores what its segment's own vertices give there (ldStart / ldEnd).
    const held = this.holdDist ? this.ldStart : this.ending ? this.ldEnd : Number.NaN;
    this.ld[e] = held === held ? held : storedDistance(this.dist, this.unitsPerPx);
    if (this.e1 >= 0 && this.e2 >= 0) {
      if (this.nt + 3 > this.tri.length) this.resize(this.px.length, this.tri.length * 2);
      this.tri[this.nt++] = this.e1;
      this.tri[this.nt++] = e;
      this.tri[this.nt++] = this.e2;
    }
    if (up) this.e2 = e;
    else this.e1 = e;
  }

  /** addCurrentVertex: both sides at p, each moved along the line by endLeft / endRight half widths. */
  current(x: number, y: number, nx: number, ny: number, endLeft: number, endRight: number, round = false): void {
    for (;;) {
      this.hx = x;
      this.hy = y;
      this.ex = nx + ny * endLeft;
      this.ey = ny - nx * endLeft;
      this.half(round, false, endLeft === 0 ? 0 : endLeft < 0 ? -1 : 1);
      this.ex = -nx + ny * endRight;
      this.ey = -ny - nx * endRight;
      this.half(round, true, -endRight === 0 ? 0 : -endRight < 0 ? -1 : 1);
      // Past half the distance the buffer holds (2^14 / LINE_DISTANCE_SCALE tile units), the
      // distance starts again from 0 at this vertex, added once more; not at a part's cut start
      // (holdDist), a vertex MapLibre's own geometry does not have.
      if (this.holdDist || !(this.dist * this.unitsPerPx > MAX_LINE_DISTANCE / 2)) return;
      this.dist = 0;
    }
  }
}

/**
 * addLine of line_bucket.ts: `pts` deduplicated (x, y pairs, `len` points), `polygon`: a closed
 * ring (its first point repeated last), joined all round. `capStart` / `capEnd` false: that end
 * is a cut (drawn butt).
 */
function addLine(m: Mesh, pts: Float64Array, len: number, polygon: boolean, capStart: boolean, capEnd: boolean): void {
  if (len < (polygon ? 3 : 2)) return;
  const s = m.style;
  const join: string = s.join;
  let miterLimit = s.miterLimit;
  if (join === 'bevel') miterLimit = 1.05;
  m.startLine();
  m.holdDist = !capStart && !polygon;
  const v = resetVertex(lineVertex);
  // Current, previous and next vertex; previous and next normals (unit, perpendicular: (-dy, dx)).
  let hasCur = false;
  let prevX = NaN;
  let prevY = NaN;
  let hasPrevN = false;
  let hasNextN = false;
  if (polygon) {
    v.cx = pts[(len - 2) * 2]!;
    v.cy = pts[(len - 2) * 2 + 1]!;
    hasCur = true;
    nextNormal(v, v.cx, v.cy, pts[0]!, pts[1]!);
    hasNextN = true;
  }
  for (let i = 0; i < len; i++) {
    v.hasNext = true;
    let nxv = 0;
    let nyv = 0;
    if (i === len - 1) {
      if (polygon) {
        nxv = pts[2]!;
        nyv = pts[3]!;
      } else v.hasNext = false;
    } else {
      nxv = pts[(i + 1) * 2]!;
      nyv = pts[(i + 1) * 2 + 1]!;
    }
    if (v.hasNext && pts[i * 2]! === nxv && pts[i * 2 + 1]! === nyv) continue;
    if (hasNextN) {
      v.pnx = v.nnx;
      v.pny = v.nny;
      hasPrevN = true;
    }
    if (hasCur) {
      prevX = v.cx;
      prevY = v.cy;
      v.hasPrev = true;
    }
    v.cx = pts[i * 2]!;
    v.cy = pts[i * 2 + 1]!;
    hasCur = true;
    if (v.hasNext) {
      nextNormal(v, v.cx, v.cy, nxv, nyv);
      hasNextN = true;
    } else {
      v.nnx = v.pnx;
      v.nny = v.pny;
      hasNextN = hasPrevN;
    }
    if (!hasPrevN) {
      v.pnx = v.nnx;
      v.pny = v.nny;
      hasPrevN = true;
    }
    // The join's normal: the bisector of the two normals ((0, 0) for a 180-degree turn).
    v.jx = v.pnx + v.nnx;
    v.jy = v.pny + v.nny;
    if (v.jx !== 0 || v.jy !== 0) {
      const d = hypot(v.jx, v.jy);
      v.jx /= d;
      v.jy /= d;
    }
    v.cosAngle = v.pnx * v.nnx + v.pny * v.nny;
    const cosHalfAngle = v.jx * v.nnx + v.jy * v.nny;
    v.miterLength = cosHalfAngle !== 0 ? 1 / cosHalfAngle : Infinity;
    v.approxAngle = 2 * Math.sqrt(2 - 2 * cosHalfAngle);
    const isSharpCorner = cosHalfAngle < COS_HALF_SHARP_CORNER && v.hasPrev && v.hasNext;
    v.lineTurnsLeft = v.pnx * v.nny - v.pny * v.nnx > 0;

    if (isSharpCorner && i > 0) {
      const prevLen = hypot(v.cx - prevX, v.cy - prevY);
      if (prevLen > 2 * s.sharp) {
        const k = s.sharp / prevLen;
        const npx = v.cx - (v.cx - prevX) * k;
        const npy = v.cy - (v.cy - prevY) * k;
        m.advance(prevX, prevY, npx, npy);
        m.current(npx, npy, v.pnx, v.pny, 0, 0);
        prevX = npx;
        prevY = npy;
      }
    }

    const end = polygon ? 'butt' : i === 0 ? (capStart ? s.cap : 'butt') : capEnd ? s.cap : 'butt';
    const cur = joinKind(v, v.hasPrev && v.hasNext ? join : end, v.hasPrev && v.hasNext, s.roundLimit, miterLimit);

    if (v.hasPrev) m.advance(prevX, prevY, v.cx, v.cy);
    m.ending = !capEnd && !polygon && i === len - 1;
    emitJoin(m, cur, v);
    m.holdDist = m.ending = false;

    if (isSharpCorner && i < len - 1) {
      const nextLen = hypot(nxv - v.cx, nyv - v.cy);
      if (nextLen > 2 * s.sharp) {
        const k = s.sharp / nextLen;
        const ncx = v.cx + (nxv - v.cx) * k;
        const ncy = v.cy + (nyv - v.cy) * k;
        m.advance(v.cx, v.cy, ncx, ncy);
        m.current(ncx, ncy, v.nnx, v.nny, 0, 0);
        v.cx = ncx;
        v.cy = ncy;
      }
    }
  }
}

/** addLine's vertex: where it is, its normals and its join's measures (line_bucket.ts names). */
interface Vertex {
  cx: number;
  cy: number;
  /** Previous and next segment normals. */
  pnx: number;
  pny: number;
  nnx: number;
  nny: number;
  /** The join's normal (the bisector). */
  jx: number;
  jy: number;
  miterLength: number;
  cosAngle: number;
  approxAngle: number;
  lineTurnsLeft: boolean;
  hasPrev: boolean;
  hasNext: boolean;
}

/** `v`'s next normal: the unit normal (-dy, dx) of the segment a -> b (written in place, no array a vertex). */
function nextNormal(v: Vertex, ax: number, ay: number, bx: number, by: number): void {
  const dx = bx - ax;
  const dy = by - ay;
  const d = hypot(dx, dy);
  v.nnx = -dy / d;
  v.nny = dx / d;
}

/** What addLine draws at vertex `v`: `cur` (the join, or the end's cap) refined as line_bucket.ts does. */
function joinKind(v: Vertex, cur: string, middle: boolean, roundLimit: number, miterLimit: number): string {
  if (middle && cur === 'round') {
    if (v.miterLength < roundLimit) cur = 'miter';
    else if (v.miterLength <= 2) cur = 'fakeround';
  }
  if (cur === 'miter' && v.miterLength > miterLimit) cur = 'bevel';
  if (cur === 'bevel') {
    if (v.miterLength > 2) cur = 'flipbevel';
    if (v.miterLength < miterLimit) cur = 'miter';
  }
  return cur;
}

/** addLine's vertex, one for all lines (reset per line: no object a line). */
const lineVertex: Vertex = {
  cx: Number.NaN,
  cy: Number.NaN,
  pnx: 0,
  pny: 0,
  nnx: 0,
  nny: 0,
  jx: 0,
  jy: 0,
  miterLength: 0,
  cosAngle: 0,
  approxAngle: 0,
  lineTurnsLeft: false,
  hasPrev: false,
  hasNext: false,
};

/** `v` as a new line starts it. */
function resetVertex(v: Vertex): Vertex {
  v.cx = Number.NaN;
  v.cy = Number.NaN;
  v.pnx = 0;
  v.pny = 0;
  v.nnx = 0;
  v.nny = 0;
  v.jx = 0;
  v.jy = 0;
  v.miterLength = 0;
  v.cosAngle = 0;
  v.approxAngle = 0;
  v.lineTurnsLeft = false;
  v.hasPrev = false;
  v.hasNext = false;
  return v;
}

/** The vertices of one join or cap (addLine's `cur` at vertex `v`), as line_bucket.ts adds them. */
function emitJoin(m: Mesh, cur: string, v: Vertex): void {
  if (cur === 'miter') {
    m.current(v.cx, v.cy, v.jx * v.miterLength, v.jy * v.miterLength, 0, 0);
  } else if (cur === 'flipbevel') {
    let fx: number;
    let fy: number;
    if (v.miterLength > 100) {
      fx = -v.nnx;
      fy = -v.nny;
    } else {
      const bevelLength = (v.miterLength * hypot(v.pnx + v.nnx, v.pny + v.nny)) / hypot(v.pnx - v.nnx, v.pny - v.nny);
      const k = bevelLength * (v.lineTurnsLeft ? -1 : 1);
      // perp of (v.jx, v.jy): (-v.jy, v.jx)
      fx = -v.jy * k;
      fy = v.jx * k;
    }
    m.current(v.cx, v.cy, fx, fy, 0, 0);
    m.current(v.cx, v.cy, -fx, -fy, 0, 0);
  } else if (cur === 'bevel' || cur === 'fakeround') {
    const off = -Math.sqrt(v.miterLength * v.miterLength - 1);
    const offA = v.lineTurnsLeft ? off : 0;
    const offB = v.lineTurnsLeft ? 0 : off;
    if (v.hasPrev) m.current(v.cx, v.cy, v.pnx, v.pny, offA, offB);
    if (cur === 'fakeround') {
      const n = Math.round((v.approxAngle * 180) / Math.PI / DEG_PER_TRIANGLE);
      for (let k = 1; k < n; k++) {
        let t = k / n;
        if (t !== 0.5) {
          const t2 = t - 0.5;
          const A = 1.0904 + v.cosAngle * (-3.2452 + v.cosAngle * (3.55645 - v.cosAngle * 1.43519));
          const B = 0.848013 + v.cosAngle * (-1.06021 + v.cosAngle * 0.215638);
          t = t + t * t2 * (t - 1) * (A * t2 * t2 + B);
        }
        let ex = (v.nnx - v.pnx) * t + v.pnx;
        let ey = (v.nny - v.pny) * t + v.pny;
        const d = hypot(ex, ey);
        const sgn = v.lineTurnsLeft ? -1 : 1;
        ex = (ex / d) * sgn;
        ey = (ey / d) * sgn;
        m.hx = v.cx;
        m.hy = v.cy;
        m.ex = ex;
        m.ey = ey;
        m.half(false, v.lineTurnsLeft, 0);
      }
    }
    if (v.hasNext) m.current(v.cx, v.cy, v.nnx, v.nny, -offA, -offB);
  } else if (cur === 'butt') {
    m.current(v.cx, v.cy, v.jx, v.jy, 0, 0);
  } else if (cur === 'square') {
    const o = v.hasPrev ? 1 : -1;
    m.current(v.cx, v.cy, v.jx, v.jy, o, o);
  } else if (cur === 'round') {
    if (v.hasPrev) {
      m.current(v.cx, v.cy, v.pnx, v.pny, 0, 0);
      m.current(v.cx, v.cy, v.pnx, v.pny, 1, 1, true);
    }
    if (v.hasNext) {
      m.current(v.cx, v.cy, v.nnx, v.nny, -1, -1, true);
      m.current(v.cx, v.cy, v.nnx, v.nny, 0, 0);
    }
  }
}

/** MapLibre's line atlas is 256 texels wide: one dash pattern a row (15 rows for round caps). */
const ATLAS_WIDTH = 256;

interface DashRange {
  left: number;
  right: number;
  isDash: boolean;
  zeroLength: boolean;
}

/**
 * A dash pattern as MapLibre's line atlas stores it (line_atlas.ts: a signed distance to the
 * nearest dash end in texels, + 128, in a byte; round caps as 15 rows across the line) and its
 * line_sdf shader samples it (linear filtering, repeated along the line).
 */
export class DashPattern {
  /** The sum of the array: one pattern is `length` line widths long. */
  readonly length: number;
  /** Rows above and below the middle (7 with round caps, else 0). */
  readonly n: number;
  readonly data: Uint8Array;
  /** The texels in a block of the canvas arena, where maplibre-mesh.wat reads them (arenaTexels). */
  private block: Float32Array | undefined = undefined;

  constructor(dasharray: readonly number[], round: boolean) {
    this.n = round ? 7 : 0;
    const height = 2 * this.n + 1;
    this.data = new Uint8Array(ATLAS_WIDTH * height);
    let length = 0;
    for (const d of dasharray) length += d;
    this.length = length;
    if (length === 0) return;
    const stretch = ATLAS_WIDTH / length;
    const ranges = dashRanges(dasharray, stretch);
    if (round) this.roundDash(ranges, stretch);
    else this.regularDash(ranges);
  }

  private roundDash(ranges: DashRange[], stretch: number): void {
    const n = this.n;
    const halfStretch = stretch / 2;
    for (let y = -n; y <= n; y++) {
      const index = ATLAS_WIDTH * (n + y);
      let k = 0;
      let range = ranges[k]!;
      for (let x = 0; x < ATLAS_WIDTH; x++) {
        if (x / range.right > 1 && k + 1 < ranges.length) range = ranges[++k]!;
        const minDist = Math.min(Math.abs(x - range.left), Math.abs(x - range.right));
        const distMiddle = (y / n) * (halfStretch + 1);
        let sd: number;
        if (range.isDash) {
          const distEdge = halfStretch - Math.abs(distMiddle);
          sd = Math.sqrt(minDist * minDist + distEdge * distEdge);
        } else sd = halfStretch - Math.sqrt(minDist * minDist + distMiddle * distMiddle);
        this.data[index + x] = Math.max(0, Math.min(255, sd + 128));
      }
    }
  }

  private regularDash(ranges: DashRange[]): void {
    // Zero-length parts dropped, neighbours of one kind merged, the first and last joined.
    for (let i = ranges.length - 1; i >= 0; --i) {
      const part = ranges[i]!;
      const next = ranges[i + 1];
      if (part.zeroLength) ranges.splice(i, 1);
      else if (next && next.isDash === part.isDash) {
        next.left = part.left;
        ranges.splice(i, 1);
      }
    }
    if (!ranges.length) return;
    const first = ranges[0]!;
    const last = ranges[ranges.length - 1]!;
    if (first.isDash === last.isDash) {
      first.left = last.left - ATLAS_WIDTH;
      last.right = first.right + ATLAS_WIDTH;
    }
    let k = 0;
    let range = ranges[k]!;
    for (let x = 0; x < ATLAS_WIDTH; x++) {
      if (x / range.right > 1 && k + 1 < ranges.length) range = ranges[++k]!;
      const minDist = Math.min(Math.abs(x - range.left), Math.abs(x - range.right));
      this.data[x] = Math.max(0, Math.min(255, (range.isDash ? minDist : -minDist) + 128));
    }
  }

  /** The texels copied into a block of the canvas arena on first use; undefined where it has no room. */
  arenaTexels(): Float32Array | undefined {
    if (this.block && inArena(this.block)) return this.block;
    const block = arenaAlloc((this.data.length + 3) >> 2, false);
    if (block) new Uint8Array(block.buffer, block.byteOffset, this.data.length).set(this.data);
    this.block = block;
    return block;
  }

  /** Gives the arena block back (a pattern dropped from dashPatterns). */
  release(): void {
    if (this.block) arenaFree(this.block);
    this.block = undefined;
  }

  /** The texture's value (0-1) at pattern position u (in patterns) and row position v (-1..1, the normal's y). */
  sample(u: number, v: number): number {
    let s = u * ATLAS_WIDTH - 0.5;
    s -= Math.floor(s / ATLAS_WIDTH) * ATLAS_WIDTH;
    const i0 = Math.floor(s);
    const f = s - i0;
    const i1 = i0 + 1 === ATLAS_WIDTH ? 0 : i0 + 1;
    const d = this.data;
    if (this.n === 0) return (d[i0]! * (1 - f) + d[i1]! * f) / 255;
    const r = Math.min(2 * this.n, Math.max(0, this.n - v * this.n));
    const r0 = Math.floor(r);
    const g = r - r0;
    const r1 = Math.min(2 * this.n, r0 + 1);
    const a = d[r0 * ATLAS_WIDTH + i0]! * (1 - f) + d[r0 * ATLAS_WIDTH + i1]! * f;
    const b = d[r1 * ATLAS_WIDTH + i0]! * (1 - f) + d[r1 * ATLAS_WIDTH + i1]! * f;
    return (a * (1 - g) + b * g) / 255;
  }
}

/** getDashRanges of line_atlas.ts: each part's texel range. */
function dashRanges(dasharray: readonly number[], stretch: number): DashRange[] {
  const odd = dasharray.length % 2 === 1;
  const ranges: DashRange[] = [];
  let left = odd ? -dasharray[dasharray.length - 1]! * stretch : 0;
  let right = dasharray[0]! * stretch;
  let isDash = true;
  ranges.push({ left, right, isDash, zeroLength: dasharray[0] === 0 });
  let current = dasharray[0]!;
  for (let i = 1; i < dasharray.length; i++) {
    isDash = !isDash;
    const len = dasharray[i]!;
    left = current * stretch;
    current += len;
    right = current * stretch;
    ranges.push({ left, right, isDash, zeroLength: len === 0 });
  }
  return ranges;
}

/** The dashes of one feature: the pattern, one pattern's length in render pixels, the edge's half width in texture values. */
interface Dash {
  pattern: DashPattern;
  period: number;
  edge: number;
}

/** Pixel-centre clip box of a part kept inside its source tile's square (the stencil MapLibre draws each tile in). */
type Clip = [number, number, number, number];

interface MeshExports {
  draw(
    px: number,
    py: number,
    nx: number,
    ny: number,
    tri: number,
    nt: number,
    data: number,
    W: number,
    outset: number,
    inset: number,
    blur2: number,
    pr: number,
    pg: number,
    pb: number,
    pa: number,
    dx: number,
    dy: number,
    cx0: number,
    cy0: number,
    cx1: number,
    cy1: number,
    ld: number,
    tex: number,
    texLen: number,
    tn: number,
    period: number,
    edge: number,
  ): number;
}

const meshKernels = wasmKernels<MeshExports>('maplibre-mesh');
/** Tests: drawMeshTs for every mesh (false), or maplibre-mesh.wat where it can run (true). */
let useMeshWasm = true;
export function setMeshWasm(on: boolean): void {
  useMeshWasm = on;
}
/** Meshes maplibre-mesh.wat has drawn in this thread (tests: that it ran). */
let wasmDraws = 0;
export const meshWasmDraws = (): number => wasmDraws;

/**
 * Blends the mesh's triangles in order into `out` (premultiplied): each pixel whose centre a
 * triangle covers (a shared edge belongs to one of its two triangles) takes the shader's alpha
 * from the interpolated normal, times a dash's coverage where dashed. `dx`, `dy`: canvas origin.
 * `clip`: pixel centres kept. Where the mesh, the canvas and the dash's texels (DashPattern
 * arenaTexels) lie in the canvas arena: maplibre-mesh.wat (the same bits).
 */
function drawMesh(m: Mesh, out: Raster, paint: RGBA, blur2: number, dx: number, dy: number, clip: Clip, dash: Dash | undefined): boolean {
  const { width: W, height: H, data } = out;
  const cx0 = Math.max(0, Math.ceil(clip[0] - dx - 0.5));
  const cy0 = Math.max(0, Math.ceil(clip[1] - dy - 0.5));
  const cx1 = Math.min(W, Math.ceil(clip[2] - dx - 0.5));
  const cy1 = Math.min(H, Math.ceil(clip[3] - dy - 0.5));
  const texels = dash && useMeshWasm ? dash.pattern.arenaTexels() : undefined;
  const fn = (!dash || texels) && m.block && useMeshWasm && inArena(data) ? meshKernels()?.onArena() : undefined;
  if (fn) {
    wasmDraws++;
    const { outset, inset } = m.style;
    const wrote = fn.draw(
      m.px.byteOffset,
      m.py.byteOffset,
      m.nx.byteOffset,
      m.ny.byteOffset,
      m.tri.byteOffset,
      m.nt,
      data.byteOffset,
      W,
      outset,
      inset,
      blur2,
      paint[0],
      paint[1],
      paint[2],
      paint[3],
      dx,
      dy,
      cx0,
      cy0,
      cx1,
      cy1,
      m.ld.byteOffset,
      texels ? texels.byteOffset : -1,
      dash ? dash.pattern.data.length : 0,
      dash ? dash.pattern.n : 0,
      dash ? dash.period : 0,
      dash ? dash.edge : 0,
    );
    return wrote !== 0;
  }
  return drawMeshTs(m, out, paint, blur2, dx, dy, [cx0, cy0, cx1, cy1], dash);
}

/** drawMesh in TypeScript: the reference of maplibre-mesh.wat. `box`: drawMesh's pixel box [cx0, cy0, cx1, cy1). */
function drawMeshTs(m: Mesh, out: Raster, paint: RGBA, blur2: number, dx: number, dy: number, box: Clip, dash: Dash | undefined): boolean {
  const { width: W, data } = out;
  let wrote = false;
  const { outset, inset } = m.style;
  const [pr, pg, pb, pa] = paint;
  const unblurred = blur2 === 1; // x / 1 is x bit for bit (NaN, zeros, infinities): no division then
  const [cx0, cy0, cx1, cy1] = box;
  const px = m.px;
  const py = m.py;
  const nx = m.nx;
  const ny = m.ny;
  const tri = m.tri;
  const ld = m.ld;
  for (let t = 0; t < m.nt; t += 3) {
    let a = tri[t]!;
    let b = tri[t + 1]!;
    const c = tri[t + 2]!;
    let ax = px[a]! - dx;
    let ay = py[a]! - dy;
    let bx = px[b]! - dx;
    let by = py[b]! - dy;
    const qx = px[c]! - dx;
    const qy = py[c]! - dy;
    let area = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax);
    if (!(area !== 0) || !Number.isFinite(area)) continue;
    if (area < 0) {
      // Orient every triangle the same way (swap a and b).
      const t0 = a;
      a = b;
      b = t0;
      const tx = ax;
      ax = bx;
      bx = tx;
      const ty = ay;
      ay = by;
      by = ty;
      area = -area;
    }
    const ymin = Math.max(cy0, Math.ceil(Math.min(ay, by, qy) - 0.5));
    const ymax = Math.min(cy1 - 1, Math.floor(Math.max(ay, by, qy) - 0.5));
    if (ymin > ymax) continue;
    const xlo = Math.max(cx0, Math.ceil(Math.min(ax, bx, qx) - 0.5));
    const xhi = Math.min(cx1 - 1, Math.floor(Math.max(ax, bx, qx) - 0.5));
    if (xlo > xhi) continue;
    // Edge functions E(p) = A x + B y + C, positive inside; w_a = E_bc / area etc.
    const A0 = by - qy;
    const B0 = qx - bx;
    const C0 = bx * qy - qx * by; // edge b -> c: weight of a
    const A1 = qy - ay;
    const B1 = ax - qx;
    const C1 = qx * ay - ax * qy; // edge c -> a: weight of b
    const A2 = ay - by;
    const B2 = bx - ax;
    const C2 = ax * by - bx * ay; // edge a -> b: weight of c
    // A shared edge belongs to one triangle: the one where it is a "top-left" edge.
    const in0 = A0 > 0 || (A0 === 0 && B0 < 0);
    const in1 = A1 > 0 || (A1 === 0 && B1 < 0);
    const in2 = A2 > 0 || (A2 === 0 && B2 < 0);
    const nax = nx[a]!;
    const nay = ny[a]!;
    const nbx = nx[b]!;
    const nby = ny[b]!;
    const ncx = nx[c]!;
    const ncy = ny[c]!;
    const inv = 1 / area;
    for (let y = ymin; y <= ymax; y++) {
      const yc = y + 0.5;
      const d0 = B0 * yc + C0;
      const d1 = B1 * yc + C1;
      const d2 = B2 * yc + C2;
      let lo = xlo;
      let hi = xhi;
      // Each edge bounds x on one side: A x + d >= 0 (or > 0); a horizontal one keeps the row or none of it.
      if (A0 !== 0) {
        const v = edgeBound(A0, d0, in0);
        if (A0 > 0) lo = v > lo ? v : lo;
        else hi = v < hi ? v : hi;
      } else if (d0 < 0 || (d0 === 0 && !in0)) continue;
      if (A1 !== 0) {
        const v = edgeBound(A1, d1, in1);
        if (A1 > 0) lo = v > lo ? v : lo;
        else hi = v < hi ? v : hi;
      } else if (d1 < 0 || (d1 === 0 && !in1)) continue;
      if (A2 !== 0) {
        const v = edgeBound(A2, d2, in2);
        if (A2 > 0) lo = v > lo ? v : lo;
        else hi = v < hi ? v : hi;
      } else if (d2 < 0 || (d2 === 0 && !in2)) continue;
      for (let x = lo; x <= hi; x++) {
        const xc = x + 0.5;
        const wa = (A0 * xc + d0) * inv;
        const wb = (A1 * xc + d1) * inv;
        const wc = 1 - wa - wb;
        const vx = wa * nax + wb * nbx + wc * ncx;
        const vy = wa * nay + wb * nby + wc * ncy;
        const dist = Math.sqrt(vx * vx + vy * vy) * outset;
        let alpha = Math.min(dist - (inset - blur2), outset - dist);
        if (!unblurred) alpha /= blur2;
        if (!(alpha > 0)) continue;
        if (alpha > 1) alpha = 1;
        if (dash) {
          alpha *= dashCoverage(dash, wa * ld[a]! + wb * ld[b]! + wc * ld[c]!, vy);
          if (!(alpha > 0)) continue;
        }
        const i = (y * W + x) * 4;
        const sa = pa * alpha;
        const k = 1 - sa;
        data[i] = pr * alpha + data[i]! * k;
        data[i + 1] = pg * alpha + data[i + 1]! * k;
        data[i + 2] = pb * alpha + data[i + 2]! * k;
        data[i + 3] = sa + data[i + 3]! * k;
        wrote = true;
      }
    }
  }
  return wrote;
}

/**
 * The bound that edge A x + d >= 0 (> 0 unless `incl`) sets on a row's pixel columns (A != 0): the
 * first column whose centre is inside for A > 0, the last one for A < 0.
 */
function edgeBound(A: number, d: number, incl: boolean): number {
  const xe = -d / A - 0.5; // the pixel index where the centre meets the edge
  if (A > 0) return incl ? Math.ceil(xe) : Math.floor(xe) + 1;
  return incl ? Math.floor(xe) : Math.ceil(xe) - 1;
}

/**
 * Whether the box of the line's first n points (flat x, y), grown by `reach`, stays clear of the
 * canvas box `box` ([x0, y0, x1, y1], world pixels after the translate), so that its mesh covers no
 * pixel centre of the canvas; false where a coordinate is not finite. A mesh vertex is a line point
 * (or a point between two, before a sharp corner) extruded by at most (outset + |offset|) times
 * the extrusion's length: up to the miter limit (a miter join; the round limit where a round join
 * is drawn as a miter), 2 (a bevel or fake-round join's side, miter length <= 2), sqrt 2 (a square
 * or round cap's corner) or 1.16 (a flipped bevel), plus 1/63 of rounding.
 */
function clearOf(pts: Float64Array, n: number, reach: number, box: readonly number[]): boolean {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < n * 2; i += 2) {
    const x = pts[i]!;
    const y = pts[i + 1]!;
    if (x - x !== 0 || y - y !== 0) return false;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return x1 + reach < box[0]! || x0 - reach > box[2]! || y1 + reach < box[1]! || y0 - reach > box[3]!;
}

/** A string per group from `exprField` (join, cap), else `constant`. */
function groupString(ctx: OpContext, exprField: string, constant: string): (g: FeatureGroup) => string {
  const e = ctx.expr(exprField);
  if (!e) return () => constant;
  const z = ctx.zoom;
  return (g) => {
    const v = e.evaluate(z, exprFeature(g));
    return typeof v === 'string' ? v : constant;
  };
}

/** Copies a line into `buf` without repeated points; returns the point count. */
function dedupe(l: ArrayLike<number>, buf: { a: Float64Array }): number {
  if (buf.a.length < l.length + 2) buf.a = new Float64Array(l.length * 2 + 2);
  const a = buf.a;
  let n = 0;
  for (let i = 0; i + 1 < l.length; i += 2) {
    const x = l[i]!;
    const y = l[i + 1]!;
    if (n > 0 && a[n * 2 - 2] === x && a[n * 2 - 1] === y) continue;
    a[n * 2] = x;
    a[n * 2 + 1] = y;
    n++;
  }
  return n;
}

/**
 * A cut end: moved `reach` further along its segment (so its butt end lies beyond the cut) and
 * the clip box closed on the cut's line, on the side of the line's interior.
 */
function cutEnd(a: Float64Array, n: number, end: boolean, axis: number, reach: number, clip: Clip): boolean {
  const i = end ? n - 1 : 0;
  const j = end ? n - 2 : 1;
  const x = a[i * 2]!;
  const y = a[i * 2 + 1]!;
  const ix = a[j * 2]!;
  const iy = a[j * 2 + 1]!;
  const d = hypot(x - ix, y - iy);
  if (!(d > 0)) return false;
  a[i * 2] = x + ((x - ix) / d) * reach;
  a[i * 2 + 1] = y + ((y - iy) / d) * reach;
  if (axis === 1) {
    if (ix < x) clip[2] = Math.min(clip[2], x);
    else if (ix > x) clip[0] = Math.max(clip[0], x);
  } else if (axis === 2) {
    if (iy < y) clip[3] = Math.min(clip[3], y);
    else if (iy > y) clip[1] = Math.max(clip[1], y);
  }
  return true;
}

const mesh = new Mesh();

/**
 * A part of a whole line or tile piece (dashes), kept inside its tile's square: its cut ends
 * squared to the square's edge (cutEnd), the dash distance moved back with a moved start. A merged
 * group's piece cut at a source-tile edge is not squared: it ends butt on the cut, where the piece
 * it continues starts butt (the same segment: they abut), and is drawn unclipped, as MapLibre draws
 * each tile's lines from its buffered geometry, so the width of a line that runs beside the edge
 * reaches across it (clipped to the piece's side along its whole length, half a road was gone).
 */
function squareCutEnds(a: Float64Array, n: number, cut: number, reach: number, clip: Clip): void {
  if (cut & CUT_START && cutEnd(a, n, false, cutAxis(cut, false), reach, clip)) {
    mesh.startDist -= reach;
    mesh.ldStart -= reach;
  }
  if (cut & CUT_END && cutEnd(a, n, true, cutAxis(cut, true), reach, clip)) mesh.ldEnd += reach;
}

/** line_sdf.fragment.glsl: smoothstep(0.5 - edge, 0.5 + edge, the pattern's value) at `along` px. */
function dashCoverage(dash: Dash, along: number, vy: number): number {
  const v = dash.pattern.sample(along / dash.period, vy);
  const e0 = 0.5 - dash.edge;
  const tt = Math.min(1, Math.max(0, (v - e0) / (2 * dash.edge)));
  return tt * tt * (3 - 2 * tt);
}

/**
 * A group's dashes: its pattern (dashPattern; `patterns` holds the call's, butt and round) at floor width
 * `fw`; null where nothing is drawn. The pattern is laid out in the tile's pixels
 * (calculateTileRatio: at the whole zoom), so it grows with the map between whole zooms; the edge
 * is in texture values.
 */
function dashOf(patterns: (DashPattern | undefined)[], dashArray: number[], round: boolean, fw: number, tileScale: number, gammaScale: number): Dash | null {
  const pattern = (patterns[round ? 1 : 0] ??= dashPattern(dashArray, round));
  if (!(fw > 0) || !(pattern.length > 0)) return null;
  return { pattern, period: pattern.length * fw * tileScale, edge: 1 / (gammaScale * pattern.length * fw) };
}

/**
 * Dash patterns by dash array and cap (a pattern is a function of them alone), kept across calls:
 * the DASH_PATTERNS made last.
 */
const dashPatterns = new Map<string, DashPattern>();
const DASH_PATTERNS = 64;

/** The dash pattern of `dashArray` with round caps or not (dashPatterns). */
function dashPattern(dashArray: readonly number[], round: boolean): DashPattern {
  const key = `${dashArray.join(',')}${round}`;
  let pattern = dashPatterns.get(key);
  if (!pattern) {
    if (dashPatterns.size >= DASH_PATTERNS) {
      const oldest = dashPatterns.keys().next().value!;
      dashPatterns.get(oldest)!.release();
      dashPatterns.delete(oldest);
    }
    dashPatterns.set(key, (pattern = new DashPattern(dashArray, round)));
  }
  return pattern;
}

/** The stroke-solid op's kernel for `profile: "maplibre"` (both backends). */
export async function strokeMapLibreCpu(ctx: OpContext): Promise<Raster> {
  const { width: W, height: H, x0, y0 } = ctx.canvas;
  const out = ctx.target ?? newRaster(W, H);
  const input = ctx.input<'features'>('features') as Features;
  const dashArray = Array.isArray(ctx.node['dash-array']) ? (ctx.node['dash-array'] as number[]) : undefined;
  // Dashed lines of GeoJSON and tiled sources are drawn from their whole lines (GeoJSON) or each
  // source tile's own piece, kept inside its tile's square (as MapLibre draws each tile): the
  // distance along a line, the dash phase, is then the same in every canvas (the seam invariant).
  const whole = dashArray?.length ? (input.whole ? input.whole.features() : input.pieces ? await input.pieces(ctx.signal) : undefined) : undefined;
  const ratio = ctx.window.pixelRatio ?? 1;
  // MapLibre's tile (8192 units, 512 CSS pixels at the whole zoom) shown 2^fraction larger.
  const fraction = ctx.zoom - Math.floor(ctx.zoom + 1e-9);
  const tileScale = 2 ** Math.max(0, fraction);
  mesh.unitsPerPx = 16 / (tileScale * ratio);
  // line-translate: every line moves by (tx, ty); a tile's piece stays clipped to the tile's own
  // square, not moved (MapLibre's stencil), as MapLibre draws it.
  const tx = clampAbs(ctx.num('dx', 0), explicitMax(ctx, 'dx'));
  const ty = clampAbs(ctx.num('dy', 0), explicitMax(ctx, 'dy'));
  const features = whole ? wholeLines(whole, input, ctx.canvas, tx, ty, mesh.unitsPerPx) : { groups: input.groups, starts: undefined };
  const ox = x0 - tx;
  const oy = y0 - ty;
  const box = [ox, oy, ox + W, oy + H]; // the canvas where the lines are (before the translate)
  const wmax = explicitMax(ctx, 'width');
  const width = groupNumber(ctx, 'width-expr', ctx.num('width', 1));
  const gapMax = explicitMax(ctx, 'gap-width');
  const gap = groupNumber(ctx, 'gap-width-expr', ctx.num('gap-width', 0));
  const offMax = explicitMax(ctx, 'offset');
  const offset = groupNumber(ctx, 'offset-expr', ctx.num('offset', 0));
  const blurMax = explicitMax(ctx, 'blur');
  const blur = groupNumber(ctx, 'blur-expr', ctx.num('blur', 0));
  const paint = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
  const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
  const join = groupString(ctx, 'join-expr', typeof ctx.node.join === 'string' ? ctx.node.join : 'miter');
  const cap = groupString(ctx, 'cap-expr', typeof ctx.node.cap === 'string' ? ctx.node.cap : 'butt');
  const miterLimit = ctx.num('miter-limit', 2);
  const roundLimit = ctx.num('round-limit', 1.05);
  // Dash lengths are in the line width at the whole zoom below (MapLibre's line-floorwidth).
  const floorWidth = floorWidthOf(ctx, wmax);
  const patterns: (DashPattern | undefined)[] = [undefined, undefined]; // butt, round (dashOf)
  // The edge of a dash: MapLibre's u_sdfgamma over the floor width; its pattern A is drawn twice
  // as long at a fractional zoom (zooming in), half as long at a whole one, and the shorter counts.
  const gammaScale = fraction > 1e-9 ? 2 : 1;
  // The across-line fade: 1 / pixel ratio CSS pixels, one render pixel; its half is the
  // shader's ANTIALIASING.
  const AA = 0.5;
  const { buf, run } = lineScratch;
  const rgba: RGBA = [0, 0, 0, 0];
  // Whether a pixel was written: a canvas left as it was is reported (reportPaint).
  let painted = false;
  for (const g of features.groups) {
    if (!g.lines.length && !g.polygons.length) continue;
    const w = Math.max(0, Math.min(width(g), wmax));
    const gw = Math.max(0, Math.min(gap(g), gapMax)) / 2;
    const half = w / 2;
    const outset = gw + half * (gw > 0 ? 2 : 1) + (half === 0 ? 0 : AA);
    const inset = gw + (gw > 0 ? AA : 0);
    if (!(outset > inset)) continue;
    const op = opacity(g);
    if (!(op >= 0.01)) continue;
    const c = paint(g);
    const a = clamp01(c[3] * clamp01(op));
    if (!(a > 0)) continue;
    rgba[0] = c[0] * a;
    rgba[1] = c[1] * a;
    rgba[2] = c[2] * a;
    rgba[3] = a;
    const o = Math.max(-offMax, Math.min(offset(g), offMax));
    const b = Math.max(0, Math.min(blur(g), blurMax));
    const j = join(g);
    const cp = cap(g);
    mesh.style = {
      join: j === 'round' || j === 'bevel' ? j : 'miter',
      cap: cp === 'round' || cp === 'square' ? cp : 'butt',
      miterLimit,
      roundLimit,
      outset,
      inset,
      offset: -o,
      sharp: SHARP_CORNER_OFFSET * ratio * tileScale,
    };
    const blur2 = b + 1;
    const dash = dashArray?.length ? dashOf(patterns, dashArray, mesh.style.cap === 'round', floorWidth(g), tileScale, gammaScale) : undefined;
    if (dash === null) continue;
    const reach = outset * 2 + Math.abs(o) + 2;
    // No vertex of a line's mesh lies farther from one of its points than this (clearOf).
    const meshReach = (outset + Math.abs(o)) * (Math.max(miterLimit, roundLimit, 2) + 0.1) + 2;
    for (let i = 0; i < g.lines.length; i++) {
      const cut = g.cutEnds?.[i] ?? 0;
      const n = dedupe(g.lines[i]!, buf);
      if (n < 2) continue;
      const part = features.starts?.get(g.lines[i]!);
      const clip: Clip = part ? [part.clip[0], part.clip[1], part.clip[2], part.clip[3]] : [-Infinity, -Infinity, Infinity, Infinity];
      mesh.startDist = part ? part.s0 : 0;
      mesh.ldStart = part?.ld0 ?? Number.NaN;
      mesh.ldEnd = part?.ld1 ?? Number.NaN;
      if (part) squareCutEnds(buf.a, n, cut, reach, clip);
      if (clearOf(buf.a, n, meshReach, box)) continue;
      mesh.reset();
      addLine(mesh, buf.a, n, false, !(cut & CUT_START), !(cut & CUT_END));
      if (drawMesh(mesh, out, rgba, blur2, ox, oy, clip, dash)) painted = true;
    }
    if (g.polygons.length && drawOutlines(g, buf, run, out, rgba, blur2, ox, oy, dash)) painted = true;
  }
  reportPaint(out.data, !!ctx.target, painted);
  return out;
}

/** A group's polygon rings stroked (MapLibre's line layer over polygons); whether a pixel was written. */
function drawOutlines(
  g: FeatureGroup,
  buf: { a: Float64Array },
  run: { a: Float64Array },
  out: Raster,
  rgba: RGBA,
  blur2: number,
  ox: number,
  oy: number,
  dash: Dash | undefined,
): boolean {
  let painted = false;
  for (let i = 0; i < g.polygons.length; i++) {
    const poly = g.polygons[i]!;
    const cuts = g.polygonCuts?.[i];
    for (let k = 0; k < poly.length; k++)
      ringLines(poly[k]!, cuts?.[k], buf, run, (pts, n, closed, startCut, endCut) => {
        // An outline run cut at a source-tile edge ends butt on it, unclipped (as lines are).
        const clip: Clip = [-Infinity, -Infinity, Infinity, Infinity];
        mesh.startDist = 0;
        mesh.ldStart = mesh.ldEnd = Number.NaN;
        mesh.reset();
        addLine(mesh, pts, n, closed, !startCut, !endCut);
        if (drawMesh(mesh, out, rgba, blur2, ox, oy, clip, dash)) painted = true;
      });
  }
  return painted;
}

function clampAbs(v: number, bound: number): number {
  return Math.max(-bound, Math.min(bound, v));
}

/** A part of a whole line: its distance along the line at its start, the square it draws in. */
interface Part {
  s0: number;
  ld0?: number;
  ld1?: number;
  clip: Clip;
}

/**
 * The groups to draw with dashes: those of polygons as they are, and every whole line's parts
 * inside the canvas (+ CLIP_BUFFER), each kept inside its source tile's square when it is a tiled
 * source's piece (visitLineParts: the walk dash takes too).
 */
function wholeLines(
  ws: readonly WholeFeature[],
  input: Features,
  canvas: Canvas,
  tx: number,
  ty: number,
  unitsPerPx: number,
): { groups: FeatureGroup[]; starts: Map<Float64Array, Part> } {
  // push, not filter().map(): map's result is packed from V8's builtin and holey where TurboFan
  // inlines it, and strokeMapLibreCpu's walk of these groups deopted ('wrong map') on the other kind.
  const groups: FeatureGroup[] = [];
  for (const g of input.groups) if (g.polygons.length) groups.push({ ...g, lines: [], cutEnds: undefined });
  const starts = new Map<Float64Array, Part>();
  // On MapLibre's tile grid (8192 units a tile), where its tiler puts every vertex.
  const snap = (q: Float64Array) => {
    for (let k = 0; k < q.length; k++) q[k] = Math.round(q[k]! * unitsPerPx) / unitsPerPx;
  };
  // MapLibre's line distance (Mesh.current, Mesh.half): where it starts again, what a vertex stores.
  const measure: LineMeasure = {
    wraps: (d) => d * unitsPerPx > MAX_LINE_DISTANCE / 2,
    quantize: (d) => storedDistance(d, unitsPerPx),
  };
  for (const w of ws) {
    const lines: Float64Array[] = [];
    const cuts: number[] = [];
    // clip: the tile's own square where the stencil stays, where the lines are before they move.
    const visit = (part: LinePart, clip: Clip) => {
      lines.push(part.line);
      cuts.push(part.cut);
      starts.set(part.line, { s0: part.s0, ld0: part.ld0, ld1: part.ld1, clip });
    };
    visitLineParts(w, canvas, CLIP_BUFFER, visit, [tx, ty], snap, measure);
    if (lines.length) groups.push(wholeGroup(w, { lines, cutEnds: Uint8Array.from(cuts) }));
  }
  return { groups, starts };
}

/** The line width at the whole zoom below, per feature (render pixels): what dash lengths count in. */
function floorWidthOf(ctx: OpContext, wmax: number): (g: FeatureGroup) => number {
  const e = ctx.expr('width-expr');
  const constant = ctx.num('width', 1);
  if (!e) return () => Math.min(constant, wmax);
  const z = Math.floor(ctx.zoom + 1e-9);
  return (g) => {
    const v = e.evaluate(z, exprFeature(g));
    return Math.min(typeof v === 'number' ? v : constant, wmax);
  };
}

/** strokeMapLibreCpu's point buffers (deduplicated points, a ring's run between cuts), grown as lines need; one render at a time. */
const lineScratch = { buf: { a: new Float64Array(256) }, run: { a: new Float64Array(256) } };

/**
 * A polygon ring as MapLibre strokes it: closed (first point repeated last) when no edge was made
 * by clipping; else the runs of kept edges, each end on a cut edge cut on that edge's axis
 * (1 vertical, 2 horizontal, 0 slanted: not clipped).
 */
function ringLines(
  ring: Float64Array,
  cuts: ArrayLike<number> | undefined,
  buf: { a: Float64Array },
  run: { a: Float64Array },
  draw: (pts: Float64Array, n: number, closed: boolean, startCut: number, endCut: number) => void,
): void {
  // Points without the closing repeat, with the original edge index of each.
  const m = ring.length >> 1;
  let count = m;
  if (count > 1 && ring[0] === ring[(m - 1) * 2] && ring[1] === ring[(m - 1) * 2 + 1]) count--;
  if (count < 2) return;
  let anyCut = false;
  if (cuts) for (let k = 0; k < count; k++) if (cuts[k] === 1) anyCut = true;
  if (!anyCut) {
    if (buf.a.length < count * 2 + 2) buf.a = new Float64Array(count * 4 + 4);
    let n = 0;
    const a = buf.a;
    for (let k = 0; k < count; k++) {
      const x = ring[k * 2]!;
      const y = ring[k * 2 + 1]!;
      if (n > 0 && a[n * 2 - 2] === x && a[n * 2 - 1] === y) continue;
      a[n * 2] = x;
      a[n * 2 + 1] = y;
      n++;
    }
    if (n > 1 && a[0] === a[n * 2 - 2] && a[1] === a[n * 2 - 1]) n--;
    if (n < 2) return;
    a[n * 2] = a[0]!;
    a[n * 2 + 1] = a[1]!;
    draw(a, n + 1, true, 0, 0);
    return;
  }
  // Start after a cut edge; walk every edge once.
  let first = 0;
  while (cuts![first] !== 1) first++;
  const axisOf = (k: number): number => {
    const i = k % count;
    const j = (k + 1) % count;
    if (ring[i * 2] === ring[j * 2]) return 1;
    if (ring[i * 2 + 1] === ring[j * 2 + 1]) return 2;
    return 0;
  };
  if (run.a.length < count * 2 + 2) run.a = new Float64Array(count * 4 + 4);
  let n = 0;
  let startAxis = axisOf(first);
  const flush = (endAxis: number) => {
    if (n >= 2) {
      const k = dedupe(run.a.subarray(0, n * 2), buf);
      if (k >= 2) draw(buf.a, k, false, startAxis || 3, endAxis || 3);
    }
    n = 0;
  };
  for (let s = 1; s <= count; s++) {
    const k = (first + s) % count;
    run.a[n * 2] = ring[k * 2]!;
    run.a[n * 2 + 1] = ring[k * 2 + 1]!;
    n++;
    if (cuts![k] === 1) {
      const ax = axisOf(k);
      flush(ax);
      startAxis = ax;
    }
  }
}
