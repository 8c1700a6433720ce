// Shaping a line of text with a list of fonts (the style's `font`: a fallback per character, as
// Mapnik's fontsets): each character takes the first font whose character map holds it (marks and
// joiners stay with the character before them), the line is cut into runs of one font and one
// direction, each run is shaped by HarfBuzz with the whole line as context (Arabic joins across a
// run edge), and the runs are put in visual order.
//
// Direction is a simplified Unicode bidi (UAX #9): the paragraph takes the direction of its first
// strong letter; right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko...) are level 1, other
// letters level 0 (2 inside a right-to-left paragraph); digits are left-to-right numbers (level 2
// after right-to-left text); neutrals between two letters of one direction take it, others the
// paragraph's; runs are reversed from the highest level down (rule L2). No explicit embeddings,
// no mirrored brackets: labels are short names.
import { ByteLru } from '../../util/byte-lru.js';
import type { TextFont } from './font.js';

/** One shaped line: glyphs in visual order, positions in em (1 = the font size), y down. */
export interface ShapedLine {
  /** Index into the font list of each glyph. */
  fonts: Uint8Array;
  gids: Uint16Array;
  /** Glyph origins (pen position plus HarfBuzz's offsets), em, from the line's start on its baseline. */
  x: Float32Array;
  y: Float32Array;
  /** Advance of each glyph, em. */
  advance: Float32Array;
  /** Whether glyph i starts a new cluster (a character boundary: where letter-spacing goes). */
  clusterStart: Uint8Array;
  /** Total advance, em. */
  width: number;
  /** Characters no font of the list holds (drawn as nothing). */
  missing: string;
  byteLength: number;
}

/** Bytes of shaped lines kept per font list. */
const SHAPE_CACHE_BYTES = 8 * 1024 * 1024;

const RTL =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Mende_Kikakui}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
/** Characters that belong with the one before them (marks, joiners, variation selectors). */
const ATTACHED = /\p{M}|\u200c|\u200d|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/u;

type Cls = 'L' | 'R' | 'D' | 'N' | 'M';

function classOf(ch: string): Cls {
  if (ATTACHED.test(ch)) return 'M';
  if (DIGIT.test(ch)) return 'D';
  if (RTL.test(ch) && LETTER.test(ch)) return 'R';
  if (LETTER.test(ch)) return 'L';
  return 'N';
}

/** Bidi levels per character (see the header). */
export function bidiLevels(chars: readonly string[]): Uint8Array {
  const cls = chars.map(classOf);
  const first = cls.find((c) => c === 'L' || c === 'R');
  const para = first === 'R' ? 1 : 0;
  const lv = new Uint8Array(chars.length);
  const lLevel = para === 1 ? 2 : 0;
  // Strong and number levels; the last strong direction seen (digits after R count as R for neutrals).
  let lastStrong: 'L' | 'R' = para === 1 ? 'R' : 'L';
  const dir: ('L' | 'R' | undefined)[] = new Array(chars.length);
  for (let i = 0; i < chars.length; i++) {
    const c = cls[i]!;
    if (c === 'L') {
      lv[i] = lLevel;
      lastStrong = dir[i] = 'L';
    } else if (c === 'R') {
      lv[i] = 1;
      lastStrong = dir[i] = 'R';
    } else if (c === 'D') {
      lv[i] = lastStrong === 'R' ? 2 : lLevel;
      dir[i] = lastStrong === 'R' ? 'R' : 'L';
    }
  }
  // Neutrals: the direction of the strong characters on both sides when they agree, else the paragraph's.
  for (let i = 0; i < chars.length; i++) {
    if (cls[i] !== 'N') continue;
    let j = i;
    while (j < chars.length && (cls[j] === 'N' || cls[j] === 'M')) j++;
    let before: 'L' | 'R' = para === 1 ? 'R' : 'L';
    for (let k = i - 1; k >= 0; k--)
      if (dir[k]) {
        before = dir[k]!;
        break;
      }
    const after: 'L' | 'R' = j < chars.length && dir[j] ? dir[j]! : para === 1 ? 'R' : 'L';
    const level = before === after ? (before === 'R' ? 1 : lLevel) : para;
    for (let k = i; k < j; k++) if (cls[k] === 'N') lv[k] = level;
    i = j - 1;
  }
  // Marks take the level of what they attach to.
  for (let i = 0; i < chars.length; i++) if (cls[i] === 'M') lv[i] = i > 0 ? lv[i - 1]! : para;
  return lv;
}

/** Reusable HarfBuzz buffers, one per module (shaping is synchronous: no render interleaves). */
const buffers = new WeakMap<object, import('harfbuzzjs').Buffer>();

/** A font list with its cache of shaped lines. */
export class FontStack {
  private readonly shaped = new ByteLru<ShapedLine>(SHAPE_CACHE_BYTES);

  constructor(readonly fonts: readonly TextFont[]) {
    if (!fonts.length) throw new Error('a font list needs at least one font');
  }

  /** The primary font (its vertical metrics set the line box). */
  get primary(): TextFont {
    return this.fonts[0]!;
  }

  /** One line of text shaped (cached by the string). */
  shape(text: string): ShapedLine {
    let s = this.shaped.get(text);
    if (!s) {
      s = this.shapeLine(text);
      this.shaped.set(text, s);
    }
    return s;
  }

  private shapeLine(text: string): ShapedLine {
    const hb = this.primary.hb;
    let buf = buffers.get(hb);
    if (!buf) buffers.set(hb, (buf = new hb.Buffer()));
    // Characters (code points) with their UTF-16 offsets (HarfBuzz's clusters are UTF-16 indices).
    const chars: string[] = [];
    const at: number[] = [];
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      chars.push(ch);
      at.push(i);
      i += ch.length;
    }
    const levels = bidiLevels(chars);
    // Font per character: the first that holds it; attached characters and spaces stay with the run.
    const fontOf = new Uint8Array(chars.length);
    let missing = '';
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const cp = ch.codePointAt(0)!;
      const prev = i > 0 ? fontOf[i - 1]! : 0;
      if (ATTACHED.test(ch) || (cp <= 0x20 && i > 0)) {
        fontOf[i] = prev;
        continue;
      }
      let f = this.fonts.findIndex((font) => font.glyph(cp) !== undefined);
      if (f < 0) {
        if (cp > 0x20) missing += ch;
        f = prev;
      }
      fontOf[i] = f;
    }
    // Runs of one font and one level, in logical order.
    const runs: { from: number; to: number; font: number; level: number }[] = [];
    for (let i = 0; i < chars.length; i++) {
      const last = runs[runs.length - 1];
      if (last && last.font === fontOf[i] && last.level === levels[i]) last.to = i + 1;
      else runs.push({ from: i, to: i + 1, font: fontOf[i]!, level: levels[i]! });
    }
    // Visual order of the runs (UAX #9 rule L2).
    const order = runs.map((_, i) => i);
    const maxLevel = Math.max(0, ...runs.map((r) => r.level));
    const minOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : 99)), 99);
    for (let lvl = maxLevel; lvl >= minOdd && lvl >= 1; lvl--) {
      for (let i = 0; i < order.length; ) {
        if (runs[order[i]!]!.level < lvl) {
          i++;
          continue;
        }
        let j = i;
        while (j < order.length && runs[order[j]!]!.level >= lvl) j++;
        order.splice(i, j - i, ...order.slice(i, j).reverse());
        i = j;
      }
    }
    const fonts: number[] = [];
    const gids: number[] = [];
    const xs: number[] = [];
    const ys: number[] = [];
    const adv: number[] = [];
    const starts: number[] = [];
    let pen = 0;
    for (const r of order.map((i) => runs[i]!)) {
      const font = this.fonts[r.font]!;
      const scale = 1 / font.upem;
      buf.clearContents();
      buf.addText(text, at[r.from]!, (r.to < chars.length ? at[r.to]! : text.length) - at[r.from]!);
      buf.setDirection(r.level % 2 ? hb.Direction.RTL : hb.Direction.LTR);
      buf.guessSegmentProperties();
      hb.shape(font.font, buf);
      const glyphs = buf.getGlyphInfosAndPositions();
      let lastCluster = -1;
      for (const g of glyphs) {
        fonts.push(r.font);
        gids.push(g.codepoint);
        xs.push(pen + (g.xOffset ?? 0) * scale);
        ys.push(-(g.yOffset ?? 0) * scale);
        const a = (g.xAdvance ?? 0) * scale;
        adv.push(a);
        starts.push(g.cluster !== lastCluster ? 1 : 0);
        lastCluster = g.cluster;
        pen += a;
      }
    }
    const n = gids.length;
    return {
      fonts: Uint8Array.from(fonts),
      gids: Uint16Array.from(gids),
      x: Float32Array.from(xs),
      y: Float32Array.from(ys),
      advance: Float32Array.from(adv),
      clusterStart: Uint8Array.from(starts),
      width: pen,
      missing,
      byteLength: 64 + n * 18 + text.length * 2,
    };
  }
}
