#!/usr/bin/python3
"""Reference data for the text op's tests, from tools we did not write (CI has none of them, so
their output is committed beside this script; text-witness.test.ts compares against it).

  shaping.json   HarfBuzz's own shaping (the hb-shape command of Debian's libharfbuzz-bin) of
                 Latin, Arabic, Hebrew, Devanagari and Thai strings: glyph ids, clusters, advances
                 and offsets in font units.
  coverage.json  FreeType's anti-aliased coverage (freetype-py over Debian's libfreetype, its
                 "smooth" rasterizer, FT_LOAD_NO_HINTING: unhinted outlines, as Mapnik draws them)
                 of DejaVu Sans strings at 11 and 32 px, each glyph rendered at its HarfBuzz
                 position (from hb-shape, subpixel offsets through FT_Set_Transform), the glyph
                 bitmaps summed and clamped to 255: `coverage` at the size itself, `supersampled`
                 at 8 times the size averaged over 8 x 8 blocks (the exact area, see render()).

Fonts: DejaVu Sans from the dejavu-fonts-ttf package; Noto Sans Devanagari and Noto Sans Thai
from @fontsource (WOFF 1.0), unpacked to TTF here by fontTools (not by our decoder).

Run from the repository root after `npm install`:
  apt-get install libharfbuzz-bin python3-freetype python3-fonttools
  /usr/bin/python3 src/ops/text/reference/make.py
"""
import base64
import json
import os
import subprocess
import tempfile

import fontTools
import freetype
from fontTools.ttLib import TTFont

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..'))
OUT = os.path.dirname(os.path.abspath(__file__))
NM = os.path.join(ROOT, 'node_modules')
DEJAVU = os.path.join(NM, 'dejavu-fonts-ttf', 'ttf', 'DejaVuSans.ttf')
DEVA = os.path.join(NM, '@fontsource', 'noto-sans-devanagari', 'files', 'noto-sans-devanagari-devanagari-400-normal.woff')
THAI = os.path.join(NM, '@fontsource', 'noto-sans-thai', 'files', 'noto-sans-thai-thai-400-normal.woff')

SHAPING = [
    # (font key, text)
    ('dejavu', 'AVAWaffle fi'),
    ('dejavu', 'Zürich Ōsaka Tōkyō'),
    ('dejavu', 'القاهرة'),
    ('dejavu', 'مرحبا بالعالم'),
    ('dejavu', 'ירושלים'),
    ('deva', 'नई दिल्ली'),
    ('deva', 'क्षत्रिय'),
    ('deva', 'हिन्दी'),
    ('thai', 'กรุงเทพมหานคร'),
]

COVERAGE = [
    ('Hamburg', 11),
    ('Sri Jayewardenepura Kotte', 11),
    ('Ölüdeniz, Zürich', 11),
    ('AVAWaffle fi', 32),
    ('Nuku\u2019alofa', 32),
]


def ttf_of(path):
    """A TTF file of a font (WOFF unpacked by fontTools), as a path hb-shape and FreeType read."""
    if path.endswith('.ttf'):
        return path
    f = TTFont(path)
    f.flavor = None
    out = os.path.join(tempfile.gettempdir(), os.path.basename(path) + '.ttf')
    f.save(out)
    return out


def hb_shape(font, text):
    r = subprocess.run(['hb-shape', '--output-format=json', '--no-glyph-names', font, text], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def hb_version():
    return subprocess.run(['hb-shape', '--version'], capture_output=True, text=True, check=True).stdout.splitlines()[0]


SUPER = 8


def b64(values):
    return base64.b64encode(bytes(values)).decode()


def render(face, glyphs, size, upem, ox, oy, width, height, k):
    """Coverage (0..255) of the glyphs drawn at k times the size and positions, averaged over
    k x k blocks: k = 1 is FreeType as Mapnik uses it; k = 8 takes FreeType's curve flattening
    (chords within 1/32 px, ftgrays.c) and its 1/64 px grid down to 1/256 and 1/512 px of the
    target, leaving the exact covered area of each pixel."""
    face.set_pixel_sizes(0, size * k)
    scale = size * k / upem
    W, H = width * k, height * k
    acc = [0] * (W * H)
    pen = 0.0
    for x in glyphs:
        gx = (ox * k) + (pen + x['dx']) * scale
        gy = (oy * k) - x['dy'] * scale
        ix, iy = int(gx // 1), int(gy // 1)
        # The fractional part as FreeType's 26.6 translation (y up in FreeType).
        face.set_transform(freetype.Matrix(65536, 0, 0, 65536), freetype.Vector(round((gx - ix) * 64), round(-(gy - iy) * 64)))
        face.load_glyph(x['g'], freetype.FT_LOAD_NO_HINTING | freetype.FT_LOAD_NO_BITMAP | freetype.FT_LOAD_RENDER)
        bm = face.glyph.bitmap
        buf, rows, cols, pitch = bm.buffer, bm.rows, bm.width, bm.pitch  # bm.buffer copies the bitmap on every read
        left = ix + face.glyph.bitmap_left
        top = iy - face.glyph.bitmap_top
        for r in range(rows):
            for c in range(cols):
                v = buf[r * pitch + c]
                X, Y = left + c, top + r
                if v and 0 <= X < W and 0 <= Y < H:
                    acc[Y * W + X] = min(255, acc[Y * W + X] + v)
        pen += x['ax']
    if k == 1:
        return acc
    out = [0] * (width * height)
    for y in range(height):
        for x in range(width):
            s = 0
            for j in range(k):
                row = (y * k + j) * W + x * k
                s += sum(acc[row:row + k])
            out[y * width + x] = round(s / (k * k))
    return out


def main():
    fonts = {'dejavu': DEJAVU, 'deva': ttf_of(DEVA), 'thai': ttf_of(THAI)}
    upem = {k: TTFont(v)['head'].unitsPerEm for k, v in fonts.items()}
    shaping = []
    for key, text in SHAPING:
        g = hb_shape(fonts[key], text)
        shaping.append({'font': key, 'upem': upem[key], 'text': text, 'glyphs': [[x['g'], x['cl'], x['ax'], x['dx'], x['dy']] for x in g]})
    with open(os.path.join(OUT, 'shaping.json'), 'w') as f:
        json.dump({'tool': hb_version(), 'fonts': {'dejavu': 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'deva': 'npm:@fontsource/noto-sans-devanagari (devanagari 400 WOFF, fontTools %s to TTF)' % fontTools.version, 'thai': 'npm:@fontsource/noto-sans-thai (thai 400 WOFF)'}, 'cases': shaping}, f, ensure_ascii=False, indent=1)

    face = freetype.Face(DEJAVU)
    cov = []
    for text, size in COVERAGE:
        g = hb_shape(DEJAVU, text)
        # The origin of the first glyph: fractional on purpose (subpixel positions).
        ox, oy = 3.25, round(size * 1.1) + 0.375
        width = int(sum(x['ax'] for x in g) * size / upem['dejavu'] + ox + 6)
        height = int(size * 1.6) + 4
        one = render(face, g, size, upem['dejavu'], ox, oy, width, height, 1)
        fine = render(face, g, size, upem['dejavu'], ox, oy, width, height, SUPER)
        cov.append({'text': text, 'size': size, 'origin': [ox, oy], 'width': width, 'height': height, 'coverage': b64(one), 'supersampled': b64(fine)})
    with open(os.path.join(OUT, 'coverage.json'), 'w') as f:
        json.dump({'tool': 'FreeType %d.%d.%d (freetype-py %s), FT_LOAD_NO_HINTING, FT_RENDER_MODE_NORMAL; positions from %s' % (freetype.version() + ('2.3.0 (Debian python3-freetype)', hb_version())), 'font': 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'cases': cov}, f, ensure_ascii=False, indent=1)


if __name__ == '__main__':
    main()
