// Fonts of the text op: font bytes (through the host's loader, like every asset) to a HarfBuzz face
// and font (harfbuzzjs: HarfBuzz compiled to WebAssembly, loaded once per process), with the glyph
// outlines HarfBuzz draws kept per glyph in font units. The HarfBuzz module holds no per-render
// state; each font keeps its own bounded caches (outlines here, shaped strings in shape.ts).
import type * as HB from 'harfbuzzjs';
import { ByteLru } from '../../util/byte-lru.js';
import { toSfnt } from './sfnt.js';

export type HarfBuzz = typeof HB;

let loading: Promise<HarfBuzz> | undefined;

/** The HarfBuzz module (its WebAssembly instantiated once per process). */
export function loadHarfBuzz(): Promise<HarfBuzz> {
  loading ??= import('harfbuzzjs') as Promise<HarfBuzz>;
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Path commands of a glyph outline, font units, y up: MOVE x y, LINE x y, QUAD cx cy x y, CUBIC c1x c1y c2x c2y x y, CLOSE. */
export const MOVE = 0;
export const LINE = 1;
export const QUAD = 2;
export const CUBIC = 3;
export const CLOSE = 4;

/** Bytes of raw glyph outlines kept per font. */
const OUTLINE_CACHE_BYTES = 8 * 1024 * 1024;

/** One draw-funcs object per HarfBuzz module, writing commands into the array passed as draw data. */
const drawFuncs = new WeakMap<object, HB.DrawFuncs>();

function outlineFuncs(hb: HarfBuzz): HB.DrawFuncs {
  let f = drawFuncs.get(hb);
  if (!f) {
    f = new hb.DrawFuncs();
    f.setMoveToFunc((x, y, out) => (out as number[]).push(MOVE, x, y));
    f.setLineToFunc((x, y, out) => (out as number[]).push(LINE, x, y));
    f.setQuadraticToFunc((cx, cy, x, y, out) => (out as number[]).push(QUAD, cx, cy, x, y));
    f.setCubicToFunc((c1x, c1y, c2x, c2y, x, y, out) => (out as number[]).push(CUBIC, c1x, c1y, c2x, c2y, x, y));
    f.setClosePathFunc((out) => (out as number[]).push(CLOSE));
    drawFuncs.set(hb, f);
  }
  return f;
}

/** A loaded font: shaping through HarfBuzz, outlines by glyph id, vertical metrics in font units. */
export class TextFont {
  readonly upem: number;
  /** Ascender (positive, up) and descender (negative) of the horizontal metrics, font units. */
  readonly ascender: number;
  readonly descender: number;
  readonly lineGap: number;
  private readonly outlines = new ByteLru<Float32Array>(OUTLINE_CACHE_BYTES);

  constructor(
    /** The reference the style gave (a path, a URL, npm:...), for messages. */
    readonly ref: string,
    readonly hb: HarfBuzz,
    readonly face: HB.Face,
    readonly font: HB.Font,
  ) {
    this.upem = face.upem || 1000;
    const e = font.hExtents();
    this.ascender = e.ascender;
    this.descender = e.descender;
    this.lineGap = e.lineGap;
  }

  /** The glyph of a code point in this font's cmap, or undefined. */
  glyph(cp: number): number | undefined {
    const g = this.font.nominalGlyph(cp);
    return g === 0 ? undefined : g;
  }

  /** The outline of glyph `gid` as path commands in font units (cached). */
  outline(gid: number): Float32Array {
    const key = String(gid);
    let p = this.outlines.get(key);
    if (!p) {
      const cmds: number[] = [];
      this.font.drawGlyph(gid, outlineFuncs(this.hb), cmds);
      p = Float32Array.from(cmds);
      this.outlines.set(key, p);
    }
    return p;
  }
}

/** Font bytes (TTF, OTF, WOFF, WOFF2; a collection's first face) to a TextFont. */
export async function loadTextFont(ref: string, bytes: Uint8Array): Promise<TextFont> {
  const sfnt = await toSfnt(bytes);
  const hb = await loadHarfBuzz();
  const face = new hb.Face(new hb.Blob(sfnt), 0);
  return new TextFont(ref, hb, face, new hb.Font(face));
}
