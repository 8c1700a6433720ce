// Laying a string out as a label: lines broken at spaces to `max-width`, each line shaped
// (shape.ts), justified, stacked `line-height` em apart, and the block put against its anchor.
// Glyph positions are pixels from the anchor (y down, origin of each glyph on its baseline).
import type { FontStack, ShapedLine } from './shape.js';

export type Anchor = 'center' | 'left' | 'right' | 'top' | 'bottom' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
export const ANCHORS: readonly Anchor[] = ['center', 'left', 'right', 'top', 'bottom', 'top-left', 'top-right', 'bottom-left', 'bottom-right'];
export type Justify = 'auto' | 'left' | 'center' | 'right';
export const JUSTIFY: readonly Justify[] = ['auto', 'left', 'center', 'right'];

export interface LayoutOptions {
  size: number;
  /** Pixels; 0: no wrapping. */
  maxWidth: number;
  /** Multiple of the size between baselines. */
  lineHeight: number;
  /** Pixels added after every character but the last of a line. */
  letterSpacing: number;
  justify: Justify;
  anchor: Anchor;
  /** Pixels added to the anchor. */
  offsetX: number;
  offsetY: number;
}

/** A laid-out label: glyphs relative to its anchor, pixels. */
export interface Layout {
  fonts: Uint8Array;
  gids: Uint16Array;
  x: Float32Array;
  y: Float32Array;
  /** The text block [x0, y0, x1, y1] from the anchor (the collision box before padding). */
  box: [number, number, number, number];
  missing: string;
}

/** Width in pixels of a shaped line with letter spacing. */
export function lineWidth(line: ShapedLine, size: number, letterSpacing: number): number {
  let clusters = 0;
  for (let i = 0; i < line.clusterStart.length; i++) clusters += line.clusterStart[i]!;
  return line.width * size + letterSpacing * Math.max(0, clusters - 1);
}

/** Lines of a string: explicit line breaks kept, then greedy breaking at spaces to maxWidth. */
export function breakLines(stack: FontStack, text: string, size: number, maxWidth: number, letterSpacing: number): ShapedLine[] {
  const out: ShapedLine[] = [];
  for (const para of text.split(/\r\n|\n|\r/)) {
    const words = para.split(' ').filter((w, _, all) => w.length > 0 || all.length === 1);
    if (maxWidth <= 0 || words.length <= 1) {
      out.push(stack.shape(words.join(' ')));
      continue;
    }
    let current = words[0]!;
    for (let i = 1; i < words.length; i++) {
      const tried = current + ' ' + words[i];
      if (lineWidth(stack.shape(tried), size, letterSpacing) <= maxWidth) current = tried;
      else {
        out.push(stack.shape(current));
        current = words[i]!;
      }
    }
    out.push(stack.shape(current));
  }
  return out;
}

/** Horizontal and vertical fraction of the block that lies left of / above the anchor. */
function anchorFractions(a: Anchor): [number, number] {
  const fx = a.includes('left') ? 0 : a.includes('right') ? 1 : 0.5;
  const fy = a.startsWith('top') ? 0 : a.startsWith('bottom') ? 1 : 0.5;
  return [fx, fy];
}

/** Baseline of a line below the top of its line box, pixels: the font's em box centred in the box. */
export function baselineInBox(stack: FontStack, size: number, boxHeight: number): number {
  const f = stack.primary;
  const asc = (f.ascender / f.upem) * size;
  const desc = (f.descender / f.upem) * size;
  return (boxHeight - (asc - desc)) / 2 + asc;
}

/** A point label's layout. */
export function layoutPoint(stack: FontStack, text: string, o: LayoutOptions): Layout {
  const lines = breakLines(stack, text, o.size, o.maxWidth, o.letterSpacing);
  const widths = lines.map((l) => lineWidth(l, o.size, o.letterSpacing));
  const W = Math.max(0, ...widths);
  const L = o.lineHeight * o.size;
  const H = L * lines.length;
  const [fx, fy] = anchorFractions(o.anchor);
  const left = -fx * W + o.offsetX;
  const top = -fy * H + o.offsetY;
  const justify = o.justify === 'auto' ? (fx === 0 ? 'left' : fx === 1 ? 'right' : 'center') : o.justify;
  const jf = justify === 'left' ? 0 : justify === 'right' ? 1 : 0.5;
  const base = baselineInBox(stack, o.size, L);
  let n = 0;
  for (const l of lines) n += l.gids.length;
  const fonts = new Uint8Array(n);
  const gids = new Uint16Array(n);
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  let k = 0;
  let missing = '';
  lines.forEach((l, li) => {
    const x0 = left + (W - widths[li]!) * jf;
    const y0 = top + li * L + base;
    let spacing = 0;
    for (let i = 0; i < l.gids.length; i++, k++) {
      if (i > 0 && l.clusterStart[i]) spacing += o.letterSpacing;
      fonts[k] = l.fonts[i]!;
      gids[k] = l.gids[i]!;
      xs[k] = x0 + l.x[i]! * o.size + spacing;
      ys[k] = y0 + l.y[i]! * o.size;
    }
    missing += l.missing;
  });
  return { fonts, gids, x: xs, y: ys, box: [left, top, left + W, top + H], missing };
}
