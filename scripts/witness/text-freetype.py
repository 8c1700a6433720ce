#!/usr/bin/python3
"""FreeType reference for the golden case text-labels: each label drawn by FreeType (its smooth
rasterizer, unhinted outlines) from HarfBuzz's own shaping (the hb-shape command), at the positions
the anchor rule of docs/format.md gives (a label's block: its width from HarfBuzz's advances, its
height line-height x size; the baseline where the primary font's em box, hhea ascender to descender,
sits centred in the line), the halo as FreeType's stroker draws it (round joins and caps, radius the
halo width, united with the glyph: Mapnik's halo), every halo under every text, composited over
the background by the W3C source-over formula. Drawn at 8 times the size and averaged over 8 x 8
blocks, so FreeType's 1/32 px curve flattening and 1/64 px grid leave the exact covered area.
CI has no FreeType bindings or hb-shape: the output is committed as tests/witness/text-labels/
freetype.png, compared by src/ops/text/witness.test.ts.

  apt-get install libharfbuzz-bin python3-freetype python3-fonttools
  /usr/bin/python3 scripts/witness/text-freetype.py      (after npm install)
"""
import json
import math
import os
import subprocess
import tempfile
import zlib
import struct

import freetype
from fontTools.ttLib import TTFont

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASE = 'text-labels'
NM = os.path.join(ROOT, 'node_modules')
DEJAVU = os.path.join(NM, 'dejavu-fonts-ttf', 'ttf', 'DejaVuSans.ttf')
DEVA_WOFF = os.path.join(NM, '@fontsource', 'noto-sans-devanagari', 'files', 'noto-sans-devanagari-devanagari-400-normal.woff')
K = 8


def hexrgb(h):
    return [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]


def ttf(path):
    if path.endswith('.ttf'):
        return path
    f = TTFont(path)
    f.flavor = None
    out = os.path.join(tempfile.gettempdir(), os.path.basename(path) + '.ttf')
    f.save(out)
    return out


def covers(font, text):
    cmap = TTFont(font)['cmap'].getBestCmap()
    return all(ord(c) in cmap or c == ' ' for c in text)


def hb_shape(font, text):
    r = subprocess.run(['hb-shape', '--output-format=json', '--no-glyph-names', font, text], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def png(path, w, h, rgba):
    raw = b''.join(b'\x00' + bytes(rgba[y * w * 4:(y + 1) * w * 4]) for y in range(h))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def draw(face, gid, size, gx, gy, W, H, acc, halo):
    """Coverage of one glyph (or its halo) at 8x, origin (gx, gy) in target pixels, added into acc (W x H at 8x)
    and clamped: abutting glyphs (Arabic joins) leave no seam, overlapping ones saturate."""
    face.set_pixel_sizes(0, size * K)
    X, Y = gx * K, gy * K
    ix, iy = math.floor(X), math.floor(Y)
    face.set_transform(freetype.Matrix(65536, 0, 0, 65536), freetype.Vector(round((X - ix) * 64), round(-(Y - iy) * 64)))
    face.load_glyph(gid, freetype.FT_LOAD_NO_HINTING | freetype.FT_LOAD_NO_BITMAP)
    glyph = face.glyph.get_glyph()
    if halo > 0:
        stroker = freetype.Stroker()
        stroker.set(round(halo * K * 64), freetype.FT_STROKER_LINECAP_ROUND, freetype.FT_STROKER_LINEJOIN_ROUND, 0)
        glyph.stroke(stroker, True)
    bg = glyph.to_bitmap(freetype.FT_RENDER_MODE_NORMAL, freetype.Vector(0, 0), True)
    bm = bg.bitmap
    buf, rows, cols, pitch = bm.buffer, bm.rows, bm.width, bm.pitch
    left, top = ix + bg.left, iy - bg.top
    for r in range(rows):
        yy = top + r
        if not 0 <= yy < H:
            continue
        for c in range(cols):
            v = buf[r * pitch + c]
            xx = left + c
            if v and 0 <= xx < W:
                acc[yy * W + xx] = min(255, acc[yy * W + xx] + v)


def main():
    style = json.load(open(os.path.join(ROOT, 'golden', CASE, 'style.json')))
    case = json.load(open(os.path.join(ROOT, 'golden', CASE, 'case.json')))
    z, tx, ty = map(int, case['tile'].split('/'))
    T = case['tileSize']
    n = T * 2 ** z
    node = style['nodes']['names']
    size, halo = node['size'], node['halo-width']
    L = node.get('line-height', 1.2) * size
    dejavu = TTFont(DEJAVU)
    upem = dejavu['head'].unitsPerEm
    asc, desc = dejavu['hhea'].ascent / upem * size, dejavu['hhea'].descent / upem * size
    base = (L - (asc - desc)) / 2 + asc
    fonts = [DEJAVU, ttf(DEVA_WOFF)]
    W, H = T * K, T * K
    halo_acc = [0] * (W * H)
    text_acc = [0] * (W * H)
    for f in style['sources']['cities']['data']['features']:
        name = f['properties']['name']
        lon, lat = f['geometry']['coordinates']
        s = math.sin(math.radians(lat))
        px = (lon + 180) / 360 * n - tx * T
        py = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n - ty * T
        font = next(p for p in fonts if covers(p, name))
        face = freetype.Face(font)
        fu = TTFont(font)['head'].unitsPerEm
        glyphs = hb_shape(font, name)
        # anchor 'left': the block's left edge at the point, its middle at the point's height.
        left, top = px, py - L / 2
        pen = 0
        for g in glyphs:
            gx = left + (pen + g['dx']) * size / fu
            gy = top + base - g['dy'] * size / fu
            draw(face, g['g'], size, gx, gy, W, H, halo_acc, halo)
            draw(face, g['g'], size, gx, gy, W, H, text_acc, 0)
            pen += g['ax']
    bgc = hexrgb(style['nodes']['bg']['color'])
    hc = hexrgb(node['halo-color'])
    tc = hexrgb(node['color'])
    out = bytearray(T * T * 4)
    for y in range(T):
        for x in range(T):
            sh = st = 0
            for j in range(K):
                row = (y * K + j) * W + x * K
                sh += sum(halo_acc[row:row + K])
                st += sum(text_acc[row:row + K])
            ah, at = sh / (K * K * 255), st / (K * K * 255)
            # W3C source-over, premultiplied: background (opaque), then the halo, then the text.
            c = [bgc[i] * (1 - ah) + hc[i] * ah for i in range(3)]
            c = [c[i] * (1 - at) + tc[i] * at for i in range(3)]
            o = (y * T + x) * 4
            out[o:o + 4] = bytes([round(v * 255) for v in c] + [255])
    d = os.path.join(ROOT, 'tests', 'witness', CASE)
    os.makedirs(d, exist_ok=True)
    png(os.path.join(d, 'freetype.png'), T, T, out)
    ver = subprocess.run(['hb-shape', '--version'], capture_output=True, text=True).stdout.splitlines()[0]
    with open(os.path.join(d, 'versions.json'), 'w') as f:
        json.dump({'freetype': '%d.%d.%d' % freetype.version(), 'freetype-py': '2.3.0 (Debian python3-freetype)', 'harfbuzz': ver, 'script': 'scripts/witness/text-freetype.py', 'supersampling': K}, f, indent=1)
        f.write('\n')


main()
