#!/usr/bin/python3
"""GDAL references for golden cases on elevation data (issue 19 part 3). CI has no GDAL, so the
outputs are committed under tests/witness/<case>/ with versions.json, and tests/witness/gdal.test.ts
compares the golden images with them.

  apt-get install gdal-bin python3-gdal python3-numpy
  /usr/bin/python3 scripts/witness/gdal-references.py     (reads ../shared/fixtures)

source-dem-relief: `gdaldem color-relief` (linear between the entries) of the Terrain-RGB tile
  10/544/357 (512 px), decoded as Mapbox Terrain-RGB, with the style's stops as the colour table.
  -> tests/witness/source-dem-relief/gdal-color-relief.png (RGB)
terrain-hillshade: the 256 px window x 97152.., y 205568.. at z11 of the Terrarium tiles
  11/379..380/802..804 (a mosaic, one pixel of margin from the neighbours). GDAL's horizontal
  pixel size is one number per raster, and the op shades each row at its own latitude's ground
  resolution, so GDAL runs once per row with that row's pixel size (C cos(lat) / 2^(z+8), the
  latitude of the row's pixel centres) and that row is kept:
  -> gdal-hillshade-z1.5.png    `gdaldem hillshade -z 1.5` (Horn, azimuth 315, altitude 45), uint8
  -> gdal-hillshade-multi-alt40.png  `gdaldem hillshade -multidirectional -alt 40`, uint8
  -> gdal-slope.f32              `gdaldem slope` in degrees (z 1), float32 little-endian, row-major
"""
import json
import math
import os
import sys

import numpy as np
from osgeo import gdal

gdal.UseExceptions()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, '..', 'shared', 'fixtures', 'dem')
OUT = os.path.join(ROOT, 'tests', 'witness')
C = 40075016.686  # 2 pi 6378137: the Web Mercator sphere's equator, metres


def read_rgb(path):
    ds = gdal.Open(path)
    return [ds.GetRasterBand(b + 1).ReadAsArray().astype(np.float64) for b in range(3)]


def mem(arr, res):
    ds = gdal.GetDriverByName('MEM').Create('', arr.shape[1], arr.shape[0], 1, gdal.GDT_Float32)
    ds.SetGeoTransform((0, res, 0, 0, 0, -res))
    ds.GetRasterBand(1).WriteArray(arr.astype(np.float32))
    return ds


def write_png(path, arr):
    h, w = arr.shape[0], arr.shape[1]
    bands = 1 if arr.ndim == 2 else arr.shape[2]
    ds = gdal.GetDriverByName('MEM').Create('', w, h, bands, gdal.GDT_Byte)
    for b in range(bands):
        ds.GetRasterBand(b + 1).WriteArray(arr if bands == 1 else arr[:, :, b])
    gdal.GetDriverByName('PNG').CreateCopy(path, ds)
    for extra in (path + '.aux.xml',):
        if os.path.exists(extra):
            os.remove(extra)


def dem_relief():
    case = os.path.join(ROOT, 'golden', 'source-dem-relief')
    style = json.load(open(os.path.join(case, 'style.json')))
    r, g, b = read_rgb(os.path.join(FIXTURES, 'terrain-rgb', 'maplibre-terrain-shading-512', '10-544-357.png'))
    elev = -10000 + (r * 65536 + g * 256 + b) * 0.1
    table = os.path.join('/tmp', 'tilegraph-relief-colours.txt')
    with open(table, 'w') as f:
        for s in style['nodes']['out']['stops']:
            c = s['color']
            f.write('%s %d %d %d\n' % (s['value'], int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)))
    src = mem(elev, 1.0)
    out = gdal.DEMProcessing('', src, 'color-relief', format='MEM', colorFilename=table)
    rgb = np.dstack([out.GetRasterBand(k + 1).ReadAsArray() for k in range(3)])
    os.makedirs(os.path.join(OUT, 'source-dem-relief'), exist_ok=True)
    write_png(os.path.join(OUT, 'source-dem-relief', 'gdal-color-relief.png'), rgb)
    return {'source-dem-relief': {
        'input': 'fixtures dem/terrain-rgb/maplibre-terrain-shading-512/10-544-357.png, elevation = -10000 + (R 65536 + G 256 + B) 0.1',
        'command': 'gdal.DEMProcessing(color-relief, colorFilename: the style stops as "value R G B")',
        'output': 'gdal-color-relief.png'}}


def row(out):
    # Keep the dataset referenced while reading its band (a temporary one is freed under the band).
    arr = out.GetRasterBand(1).ReadAsArray()
    return arr[1, 1:-1]


def terrain_hillshade():
    z, x0, y0, size = 11, 97152, 205568, 256
    tiles = {}
    for tx in (379, 380):
        for ty in (802, 803, 804):
            r, g, b = read_rgb(os.path.join(FIXTURES, 'terrarium', 'maplibre-grandcanyon-256', '%d-%d-%d.png' % (z, tx, ty)))
            tiles[(tx, ty)] = (r * 256 + g + b / 256) - 32768
    mosaic = np.vstack([np.hstack([tiles[(379, ty)], tiles[(380, ty)]]) for ty in (802, 803, 804)])
    # The window and one pixel around it, in mosaic pixels (the mosaic starts at 379 * 256, 802 * 256).
    mx, my = x0 - 379 * 256, y0 - 802 * 256
    block = mosaic[my - 1:my + size + 1, mx - 1:mx + size + 1]
    world = 256 * 2 ** z
    grey = np.zeros((size, size), np.uint8)
    multi = np.zeros((size, size), np.uint8)
    slope = np.zeros((size, size), np.float32)
    for j in range(size):
        lat_inv_cos = math.cosh(math.pi * (1 - 2 * (y0 + j + 0.5) / world))
        res = C / (world * lat_inv_cos)
        # Rows j .. j + 2 of the block: the row and its two neighbours; GDAL's row 1 is ours.
        ds = mem(block[j:j + 3, :], res)
        grey[j] = row(gdal.DEMProcessing('', ds, 'hillshade', format='MEM', zFactor=1.5))
        multi[j] = row(gdal.DEMProcessing('', ds, 'hillshade', format='MEM', multiDirectional=True, altitude=40))
        slope[j] = row(gdal.DEMProcessing('', ds, 'slope', format='MEM'))
    d = os.path.join(OUT, 'terrain-hillshade')
    os.makedirs(d, exist_ok=True)
    write_png(os.path.join(d, 'gdal-hillshade-z1.5.png'), grey)
    write_png(os.path.join(d, 'gdal-hillshade-multi-alt40.png'), multi)
    slope.astype('<f4').tofile(os.path.join(d, 'gdal-slope.f32'))
    return {'terrain-hillshade': {
        'input': 'fixtures dem/terrarium/maplibre-grandcanyon-256/11-{379,380}-{802,803,804}.png, elevation = R 256 + G + B / 256 - 32768; window z11 x 97152 y 205568, 256 px, 1 px margin',
        'commands': ['gdal.DEMProcessing(hillshade, zFactor=1.5)', 'gdal.DEMProcessing(hillshade, multiDirectional=True, altitude=40)', 'gdal.DEMProcessing(slope)'],
        'resolution': 'one GDAL run per row, pixel size 40075016.686 cos(lat) / 2^(z+8) at the row centre latitude',
        'outputs': ['gdal-hillshade-z1.5.png', 'gdal-hillshade-multi-alt40.png', 'gdal-slope.f32 (degrees, float32 LE, 256 x 256)']}}


def main():
    cases = {}
    cases.update(dem_relief())
    cases.update(terrain_hillshade())
    info = {'gdal': gdal.__version__, 'numpy': np.__version__, 'python': sys.version.split()[0], 'script': 'scripts/witness/gdal-references.py', 'cases': cases}
    with open(os.path.join(OUT, 'gdal-versions.json'), 'w') as f:
        json.dump(info, f, indent=1)
        f.write('\n')
    print(json.dumps(info, indent=1))


main()
