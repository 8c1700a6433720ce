#!/usr/bin/python3
"""An OpenType font with CFF (cubic) outlines for the text op's tests: DejaVu Sans cut down by
fontTools' subsetter to the characters of src/ops/text/reference/coverage.json's strings (its
GSUB, GPOS and kern kept, so HarfBuzz shapes it as the TrueType font), each glyph's quadratic
TrueType contours written as Type 2 charstrings by fontTools' T2CharStringPen (a quadratic is a
cubic exactly; control points rounded to 1/100 font unit). DejaVu Sans ships no OTF and no
other CFF font is at hand, so this is how an OTF is tested: src/ops/text/witness.test.ts fills it
and compares with FreeType's coverage of the TrueType font (reference/coverage.json).

  apt-get install python3-fonttools
  /usr/bin/python3 scripts/witness/text-otf.py      (after npm install)
"""
import json
import os

import fontTools
from fontTools import subset
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTFont

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, 'src', 'ops', 'text', 'reference')
DEJAVU = os.path.join(ROOT, 'node_modules', 'dejavu-fonts-ttf', 'ttf', 'DejaVuSans.ttf')
OUT = os.path.join(REF, 'dejavu-sans-cff-subset.otf')


def main():
    cases = json.load(open(os.path.join(REF, 'coverage.json')))['cases']
    text = ''.join(sorted(set(''.join(c['text'] for c in cases))))
    font = TTFont(DEJAVU)
    opts = subset.Options()
    opts.layout_features = ['*']
    opts.legacy_kern = True
    opts.name_IDs = ['*']
    opts.notdef_outline = True
    opts.glyph_names = True
    sub = subset.Subsetter(opts)
    sub.populate(text=text)
    sub.subset(font)

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    hmtx = font['hmtx']
    charstrings = {}
    for g in order:
        pen = T2CharStringPen(hmtx[g][0], glyphs, roundTolerance=0.01)
        glyphs[g].draw(pen)
        charstrings[g] = pen.getCharString()

    name = font['name']
    family = name.getDebugName(1)
    ps = (name.getDebugName(6) or 'DejaVuSans') + '-CFFSubset'
    fb = FontBuilder(font['head'].unitsPerEm, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(font.getBestCmap())
    fb.setupCFF(ps, {'FullName': f'{family} (CFF subset)', 'FamilyName': family}, charstrings, {})
    fb.setupHorizontalMetrics({g: hmtx[g] for g in order})
    hhea = font['hhea']
    fb.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent, lineGap=hhea.lineGap)
    fb.setupNameTable({'familyName': family, 'styleName': 'Book', 'psName': ps, 'version': f'subset of {name.getDebugName(5)}'})
    os2 = font['OS/2']
    fb.setupOS2(
        sTypoAscender=os2.sTypoAscender,
        sTypoDescender=os2.sTypoDescender,
        sTypoLineGap=os2.sTypoLineGap,
        usWinAscent=os2.usWinAscent,
        usWinDescent=os2.usWinDescent,
    )
    fb.setupPost()
    for tag in ('GDEF', 'GSUB', 'GPOS', 'kern'):
        if tag in font:
            fb.font[tag] = font[tag]
    fb.save(OUT)
    print(f'{OUT}: {len(order)} glyphs, {os.path.getsize(OUT)} bytes (fontTools {fontTools.version}), text {text!r}')


if __name__ == '__main__':
    main()
