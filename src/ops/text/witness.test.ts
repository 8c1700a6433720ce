// text against tools we did not write (reference/make.py made the data, with their versions):
// shaping against HarfBuzz's own hb-shape, glyph coverage against FreeType's rasterizer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Rasterizer } from '../../backends/cpu/rasterize.js';
import { CLOSE, CUBIC, loadTextFont, QUAD, type TextFont } from './font.js';
import { fontFormat } from './sfnt.js';
import { glyphRings } from './glyphs.js';
import { FontStack } from './shape.js';

const REF = path.resolve('src/ops/text/reference');
const NM = path.resolve('node_modules');
const FONTS: Record<string, string> = {
  dejavu: path.join(NM, 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  deva: path.join(NM, '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff'),
  thai: path.join(NM, '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff'),
  // DejaVu Sans as an OpenType font with CFF (cubic) outlines, made by fontTools (scripts/witness/text-otf.py).
  otf: path.join(REF, 'dejavu-sans-cff-subset.otf'),
};
const font = (key: string): Promise<TextFont> => loadTextFont(key, new Uint8Array(readFileSync(FONTS[key]!)));

interface ShapingCase {
  font: string;
  upem: number;
  text: string;
  /** [gid, cluster, x advance, x offset, y offset] per glyph, font units, visual order. */
  glyphs: [number, number, number, number, number][];
}

describe('shaping against HarfBuzz (hb-shape, reference/shaping.json)', () => {
  const ref = JSON.parse(readFileSync(path.join(REF, 'shaping.json'), 'utf8')) as { tool: string; cases: ShapingCase[] };
  for (const c of ref.cases) {
    test(`${c.text} (${c.font}): the glyphs, advances and offsets of ${ref.tool}`, async () => {
      const stack = new FontStack([await font(c.font)]);
      const s = stack.shape(c.text);
      expect(s.missing).toBe('');
      const got: [number, number, number, number][] = [];
      let pen = 0;
      for (let i = 0; i < s.gids.length; i++) {
        got.push([s.gids[i]!, Math.round(s.advance[i]! * c.upem), Math.round(s.x[i]! * c.upem - pen) || 0, Math.round(-s.y[i]! * c.upem) || 0]);
        pen += Math.round(s.advance[i]! * c.upem);
      }
      expect(got).toEqual(c.glyphs.map(([g, , ax, dx, dy]) => [g, ax, dx, dy]));
    });
  }

  test('the default font list shapes Devanagari and Thai with the fallback fonts, as each font alone', async () => {
    const stack = new FontStack([await font('dejavu'), await font('deva'), await font('thai')]);
    for (const c of ref.cases.filter((x) => x.font !== 'dejavu')) {
      const s = stack.shape(c.text);
      expect(s.missing).toBe('');
      expect([...s.gids]).toEqual(c.glyphs.map((g) => g[0]));
      expect(new Set(s.fonts)).toEqual(new Set([c.font === 'deva' ? 1 : 2]));
    }
  });

  test('the font as WOFF 2.0 (unpacked by wawoff2) shapes as HarfBuzz shaped it, and draws', async () => {
    // @fontsource builds its WOFF and WOFF2 files apart (their outlines differ by a few units): shaping is compared, outlines only drawn.
    const woff2 = await loadTextFont('deva2', new Uint8Array(readFileSync(FONTS.deva!.replace(/\.woff$/, '.woff2'))));
    for (const c of ref.cases.filter((x) => x.font === 'deva')) {
      const s = new FontStack([woff2]).shape(c.text);
      expect([...s.gids]).toEqual(c.glyphs.map((g) => g[0]));
      expect([...s.advance].map((a) => Math.round(a * c.upem))).toEqual(c.glyphs.map((g) => g[2]));
      expect(s.gids.filter((g) => woff2.outline(g).length > 0).length).toBeGreaterThan(s.gids.length / 2);
    }
  });
});

interface CoverageCase {
  text: string;
  size: number;
  origin: [number, number];
  width: number;
  height: number;
  coverage: string;
  supersampled: string;
}

describe('glyph coverage against FreeType (reference/coverage.json)', () => {
  const ref = JSON.parse(readFileSync(path.join(REF, 'coverage.json'), 'utf8')) as { tool: string; cases: CoverageCase[] };

  /** Our coverage of a case (the glyphs at HarfBuzz's positions, filled by the CPU rasterizer) against `expected`, in 8-bit steps. */
  async function compare(c: CoverageCase, expected: Uint8Array, key = 'dejavu') {
    const f = await font(key);
    const s = new FontStack([f]).shape(c.text);
    const r = new Rasterizer(c.width, c.height);
    for (let i = 0; i < s.gids.length; i++) r.addRings(glyphRings(f, s.gids[i]!, c.size), c.origin[0] + s.x[i]! * c.size, c.origin[1] + s.y[i]! * c.size);
    const mask = r.sweepMask();
    let max = 0;
    let sum = 0;
    let ink = 0;
    for (let i = 0; i < mask.length; i++) {
      const d = Math.abs(Math.round(Math.min(1, mask[i]!) * 255) - expected[i]!);
      max = Math.max(max, d);
      sum += d;
      if (expected[i]! > 0) ink++;
    }
    const mean = sum / Math.max(1, ink);
    if (process.env.TEXT_LOG) console.log(c.text, c.size, { max, mean, ink });
    expect(ink).toBeGreaterThan(c.size * c.text.length);
    return { max, mean };
  }

  test('the OTF is told apart by its signature and HarfBuzz hands its outlines over as cubic curves', async () => {
    const bytes = new Uint8Array(readFileSync(FONTS.otf!));
    expect(fontFormat(bytes)).toBe('otf');
    const f = await font('otf');
    const gids = new FontStack([f]).shape('Hamburg').gids;
    const ops = (g: number) => {
      const o = f.outline(g);
      const out: number[] = [];
      for (let i = 0; i < o.length; ) {
        const op = o[i]!;
        out.push(op);
        i += op === CUBIC ? 7 : op === QUAD ? 5 : op === CLOSE ? 1 : 3;
      }
      return out;
    };
    expect([...gids].some((g) => ops(g).includes(CUBIC))).toBe(true);
    expect([...gids].some((g) => ops(g).includes(QUAD))).toBe(false);
  });

  for (const c of ref.cases) {
    test(`'${c.text}' at ${c.size} px: FreeType's exact area (8x supersampled) within 2/255 per pixel`, async () => {
      const { max, mean } = await compare(c, Buffer.from(c.supersampled, 'base64'));
      expect(max).toBeLessThanOrEqual(2);
      expect(mean).toBeLessThan(0.5);
    });
    test(`'${c.text}' at ${c.size} px from the OTF (CFF cubic outlines): FreeType's exact area of the TrueType font within 2/255 per pixel`, async () => {
      const { max, mean } = await compare(c, Buffer.from(c.supersampled, 'base64'), 'otf');
      expect(max).toBeLessThanOrEqual(2);
      expect(mean).toBeLessThan(0.5);
    });
    test(`'${c.text}' at ${c.size} px: FreeType's own rendering (as Mapnik draws it) within 16/255 per pixel, mean under 4/255 over the ink`, async () => {
      // FreeType flattens curves into chords up to 1/32 px off and rounds outlines to 1/64 px
      // (ftgrays.c): on the curved edges of small text that alone moves pixels by up to ~14/255.
      const { max, mean } = await compare(c, Buffer.from(c.coverage, 'base64'));
      expect(max).toBeLessThanOrEqual(16);
      expect(mean).toBeLessThan(4);
    });
  }
});

describe('the golden case text-labels against FreeType and HarfBuzz (tests/witness/text-labels)', () => {
  // Past 4/255 (11 pixels, at most 12/255): halo edges, where Clipper's round joins (chords within
  // 0.01-0.02 px) meet FreeType's stroker's conic arcs. Before glyphs were united, overlapping
  // joins (the Devanagari headline, Arabic joins) summed both windings: 69 pixels, up to 92/255.
  test("expected.png and today's render are FreeType's labels within 4/255 on all but 0.01 % of pixels", async () => {
    const { decodeWithSharp } = await import('../../../tests/helpers/decode.js');
    const { Renderer, toRGBA8 } = await import('../../index.js');
    const { NodeLoader } = await import('../../hosts/node/loader.js');
    const dir = path.resolve('golden/text-labels');
    const ref = await decodeWithSharp(readFileSync(path.resolve('tests/witness/text-labels/freetype.png')));
    const expected = await decodeWithSharp(readFileSync(path.join(dir, 'expected.png')));
    const r = Renderer.create(readFileSync(path.join(dir, 'style.json'), 'utf8'), { loader: new NodeLoader({ baseDir: dir, allowOutside: true }) });
    const today = toRGBA8(await r.renderTile({ z: 0, x: 0, y: 0 }, undefined, { tileSize: 512 }));
    for (const img of [expected.data, today]) {
      let max = 0;
      let over4 = 0;
      let ink = 0;
      for (let i = 0; i < img.length; i += 4) {
        let m = 0;
        for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(img[i + c]! - ref.data[i + c]!));
        max = Math.max(max, m);
        if (m > 4) over4++;
        if (ref.data[i]! < 100) ink++;
      }
      if (process.env.TEXT_LOG) console.log({ max, over4, ink });
      expect(ink).toBeGreaterThan(500);
      expect(over4).toBeLessThanOrEqual((img.length / 4) * 0.0001);
    }
  });
});
