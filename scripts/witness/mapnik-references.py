#!/usr/bin/python3
"""Mapnik references for golden cases of fills and strokes (issue 19 part 3): the same data drawn
by Mapnik 3.1 (AGG renderer) with the same colours, widths, joins, caps and order, in the case's
tile. CI has no Mapnik, so the images are committed as tests/witness/<case>/mapnik.png with
tests/witness/mapnik-versions.json, and tests/witness/mapnik.test.ts compares the golden images
with them. Geometry ops (buffer, boolean, hull, ...) are computed with GEOS through shapely first.

  apt-get install python3-mapnik python3-shapely
  /usr/bin/python3 scripts/witness/mapnik-references.py     (reads ../shared/fixtures)

Mapnik differs from tilegraph on purpose in one place: anti-aliasing (AGG's 8-bit scanline
coverage against our exact areas), so the tests compare with a bound per case.
"""
import json
import math
import os
import sys
import tempfile

import mapnik
from shapely.geometry import LineString, MultiPoint, Point, Polygon, mapping, shape
from shapely.ops import substring, transform

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, 'golden')
OUT = os.path.join(ROOT, 'tests', 'witness')
FIXTURES = os.path.join(ROOT, '..', 'shared', 'fixtures')
HALF = 20037508.342789244
TMP = tempfile.mkdtemp(prefix='tilegraph-mapnik-')


def tile_box(z, x, y):
    size = 2 * HALF / 2 ** z
    return mapnik.Box2d(-HALF + x * size, HALF - (y + 1) * size, -HALF + (x + 1) * size, HALF - y * size)


def window_box(z, x0, y0, w, h, T=256):
    res = 2 * HALF / (T * 2 ** z)
    return mapnik.Box2d(-HALF + x0 * res, HALF - (y0 + h) * res, -HALF + (x0 + w) * res, HALF - y0 * res)


def geojson_file(name, data):
    path = os.path.join(TMP, name + '.geojson')
    with open(path, 'w') as f:
        json.dump(data, f)
    return path


def layer(name, path, styles, srs='epsg:4326'):
    return ('<Layer name="%s" srs="%s">%s<Datasource><Parameter name="type">geojson</Parameter>'
            '<Parameter name="file">%s</Parameter></Datasource></Layer>') % (name, srs, ''.join('<StyleName>%s</StyleName>' % s for s in styles), path)


def render(case, xml, box, w, h, name='mapnik'):
    m = mapnik.Map(w, h)
    mapnik.load_map_from_string(m, xml)
    m.zoom_to_box(box)
    im = mapnik.Image(w, h)
    mapnik.render(m, im)
    d = os.path.join(OUT, case)
    os.makedirs(d, exist_ok=True)
    im.save(os.path.join(d, name + '.png'), 'png32')
    with open(os.path.join(d, name + '.xml'), 'w') as f:
        f.write(xml.replace(TMP, '$TMP').replace(ROOT, '$ROOT'))


def style_of(case):
    return json.load(open(os.path.join(GOLDEN, case, 'style.json')))


def mapnik_xml(background, styles, layers):
    bg = ' background-color="%s"' % background if background else ''
    return '<?xml version="1.0" encoding="utf-8"?>\n<Map srs="epsg:3857"%s>\n%s\n%s\n</Map>\n' % (bg, '\n'.join(styles), '\n'.join(layers))


def fill_holes_expr():
    case = 'fill-holes-expr'
    s = style_of(case)
    data = s['sources']['shapes']['data']
    # fill-alpha-expr ['get', 'a'] where a feature has it, else the constant $alpha (0.8 in case.json).
    for f in data['features']:
        f['properties'].setdefault('a', 0.8)
    path = geojson_file(case, data)
    colours = {'park': '#2e8b57', 'water': '#1e6fd9', 'urban': '#d9541e'}
    rules = ''.join('<Rule><Filter>[kind] = \'%s\'</Filter><PolygonSymbolizer fill="%s" fill-opacity="[a]"/></Rule>' % (k, c) for k, c in colours.items())
    rules += '<Rule><ElseFilter/><PolygonSymbolizer fill="#808080" fill-opacity="[a]"/></Rule>'
    xml = mapnik_xml('#ffffff', ['<Style name="fills">%s</Style>' % rules], [layer('shapes', path, ['fills'])])
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'PolygonSymbolizer per kind, fill-opacity from the feature (0.8 where the style falls back to $alpha), white background, tile 1/0/0'}


def stroke_joins_caps():
    case = 'stroke-joins-caps'
    s = style_of(case)
    path = geojson_file(case, s['sources']['lines']['data'])
    # The six stroke nodes in blend order. On a line Mapnik's offset and ours agree (+6: to the right
    # on screen); Mapnik's geojson reader turns polygon rings to its own orientation, so the ring,
    # clockwise as written with the offset inside it, takes -6.
    # miter-revert: a miter past the limit becomes a bevel (SVG's rule, ours); AGG's plain miter
    # truncates it at the limit instead.
    styles = [
        '<Style name="s1"><Rule><Filter>[style] = \'miter\'</Filter><LineSymbolizer stroke="#c0392b" stroke-width="[w]" stroke-linejoin="miter-revert" stroke-linecap="butt" stroke-miterlimit="2"/></Rule></Style>',
        '<Style name="s1c"><Rule><Filter>[style] = \'miter\'</Filter><LineSymbolizer stroke="#ffffff" stroke-width="1" stroke-linejoin="miter" stroke-linecap="butt"/></Rule></Style>',
        '<Style name="s2"><Rule><Filter>[style] = \'round\'</Filter><LineSymbolizer stroke="#2471a3" stroke-width="[w]" stroke-linejoin="round" stroke-linecap="round" stroke-opacity="0.8"/></Rule></Style>',
        '<Style name="s3"><Rule><Filter>[style] = \'bevel\'</Filter><LineSymbolizer stroke="#1e8449" stroke-width="[w]" stroke-linejoin="bevel" stroke-linecap="square"/></Rule></Style>',
        '<Style name="s4"><Rule><Filter>[style] = \'ring\'</Filter><LineSymbolizer stroke="#8e44ad" stroke-width="[w]" stroke-linejoin="miter-revert" stroke-linecap="butt" stroke-miterlimit="1.5"/></Rule>'
        '<Rule><Filter>[style] = \'hair\'</Filter><LineSymbolizer stroke="#000000" stroke-width="[w]" stroke-linejoin="miter-revert" stroke-linecap="butt" stroke-miterlimit="1.5"/></Rule></Style>',
        '<Style name="s5"><Rule><Filter>[style] = \'ring\'</Filter><LineSymbolizer stroke="#f39c12" stroke-width="2" offset="-6" stroke-linejoin="round" stroke-linecap="butt"/></Rule>'
        '<Rule><Filter>[style] = \'hair\'</Filter><LineSymbolizer stroke="#f39c12" stroke-width="2" offset="6" stroke-linejoin="round" stroke-linecap="butt"/></Rule></Style>',
    ]
    layers = [layer('l%d' % i, path, [n]) for i, n in enumerate(['s1', 's1c', 's2', 's3', 's4', 's5'])]
    xml = mapnik_xml('#ffffff', styles, layers)
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'LineSymbolizer per stroke node in blend order: widths from [w], joins (miter-revert for miter), caps, miter limits, opacity 0.8, offsets +6 on lines and -6 on the ring (Mapnik reorients rings), white background, tile 1/0/0'}


def world_px(z, T=256):
    """lon/lat -> world pixels at zoom z (Web Mercator closed form), and back to EPSG:3857 metres."""
    n = T * 2 ** z

    def to_px(lon, lat, *_):
        s = math.sin(math.radians(lat))
        return ((lon + 180) / 360 * n, (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n)

    def to_m(x, y, *_):
        return (x / n * 2 * HALF - HALF, HALF - y / n * 2 * HALF)
    return (lambda g: transform(lambda xs, ys, zs=None: tuple(zip(*[to_px(a, b) for a, b in zip(xs, ys)])) if hasattr(xs, '__len__') else to_px(xs, ys), g),
            lambda g: transform(lambda xs, ys, zs=None: tuple(zip(*[to_m(a, b) for a, b in zip(xs, ys)])) if hasattr(xs, '__len__') else to_m(xs, ys), g))


def merc_file(name, items):
    """GeoJSON in EPSG:3857 metres of (shapely geometry in metres, properties) pairs."""
    return geojson_file(name, {'type': 'FeatureCollection', 'features': [
        {'type': 'Feature', 'properties': props, 'geometry': mapping(g)} for g, props in items if not g.is_empty]})


def features_px(case, source, z):
    to_px, _ = world_px(z)
    data = style_of(case)['sources'][source]['data']
    return [(to_px(shape(f['geometry'])), f['properties']) for f in data['features']]


QUAD = 64  # segments per quarter circle for GEOS's round joins and disks: far below a pixel


def geom_boolean():
    case = 'geom-boolean'
    _, to_m = world_px(1)
    a = features_px(case, 'a', 1)
    b = features_px(case, 'b', 1)
    ops = [('intersection', '#e6550d'), ('union', '#31a354'), ('difference', '#756bb1'), ('xor', '#3182bd')]
    items = []
    for op, colour in ops:
        ga = [g for g, p in a if p['op'] == op][0]
        gb = [g for g, p in b if p['op'] == op][0]
        r = {'intersection': ga.intersection, 'union': ga.union, 'difference': ga.difference, 'xor': ga.symmetric_difference}[op](gb)
        items.append((to_m(r), {'c': colour}))
    fills = merc_file(case + '-fills', items)
    ina = merc_file(case + '-a', [(to_m(g), {}) for g, _ in a])
    inb = merc_file(case + '-b', [(to_m(g), {}) for g, _ in b])
    xml = mapnik_xml('#ffffff', [
        '<Style name="fills"><Rule><PolygonSymbolizer fill="[c]"/></Rule></Style>',
        '<Style name="sa"><Rule><LineSymbolizer stroke="#000000" stroke-width="1"/></Rule></Style>',
        '<Style name="sb"><Rule><LineSymbolizer stroke="#888888" stroke-width="1"/></Rule></Style>',
    ], [layer('fills', fills, ['fills'], 'epsg:3857'), layer('a', ina, ['sa'], 'epsg:3857'), layer('b', inb, ['sb'], 'epsg:3857')])
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'GEOS (shapely) intersection, union, difference, symmetric difference of each a/b pair in pixel space, PolygonSymbolizer fills, 1 px LineSymbolizer outlines of a and b'}


def geom_buffer():
    case = 'geom-buffer'
    _, to_m = world_px(1)
    f = features_px(case, 'shapes', 1)

    def buf(d, join):
        out = []
        for g, p in f:
            if g.geom_type == 'Polygon':
                out.append(g.buffer(d, resolution=QUAD, join_style={'round': 1, 'miter': 2, 'bevel': 3}[join], mitre_limit=4))
            elif g.geom_type == 'LineString':
                # Line ends: round, square under bevel joins (the op's documented ends).
                out.append(g.buffer(abs(d), resolution=QUAD, join_style={'round': 1, 'miter': 2, 'bevel': 3}[join], cap_style=3 if join == 'bevel' else 1, mitre_limit=4))
            else:
                out.append(g.buffer(abs(d), resolution=QUAD))
        return [(to_m(g), {}) for g in out]
    layers = [layer('r', merc_file(case + '-r', buf(12, 'round')), ['r'], 'epsg:3857'),
              layer('m', merc_file(case + '-m', buf(6, 'miter')), ['m'], 'epsg:3857'),
              layer('e', merc_file(case + '-e', buf(-5, 'bevel')), ['e'], 'epsg:3857'),
              layer('o', merc_file(case + '-o', [(to_m(g), {}) for g, _ in f if g.geom_type != 'Point']), ['o'], 'epsg:3857')]
    xml = mapnik_xml('#ffffff', [
        '<Style name="r"><Rule><PolygonSymbolizer fill="#9ecae1"/></Rule></Style>',
        '<Style name="m"><Rule><PolygonSymbolizer fill="#3182bd"/></Rule></Style>',
        '<Style name="e"><Rule><PolygonSymbolizer fill="#fdae6b"/></Rule></Style>',
        '<Style name="o"><Rule><LineSymbolizer stroke="#222222" stroke-width="1"/></Rule></Style>',
    ], layers)
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'GEOS (shapely) buffers in pixel space: +12 round, +6 mitre (limit 4), -5 bevel (lines: |d| with square caps under bevel, round otherwise; points: disks), 64 segments a quarter circle; PolygonSymbolizer fills, 1 px LineSymbolizer input'}


def geom_measures():
    case = 'geom-measures'
    _, to_m = world_px(1)
    f = features_px(case, 's', 1)
    vertices = []
    for g, _ in f:
        if g.geom_type == 'Polygon':
            for ring in [g.exterior, *g.interiors]:
                vertices += list(ring.coords)
        else:
            vertices += list(g.coords)
    hull = MultiPoint(vertices).convex_hull
    box = MultiPoint(vertices).envelope
    polys = [g for g, _ in f if g.geom_type == 'Polygon']
    boundary = []
    for g, _ in f:
        if g.geom_type == 'Polygon':
            boundary += [LineString(r.coords) for r in [g.exterior, *g.interiors]]
        elif g.geom_type == 'LineString':
            boundary.append(g)
    # Centroids: area-weighted for polygons, length-weighted for lines, the point itself (GEOS).
    dots = [g.centroid.buffer(4, resolution=QUAD) for g, _ in f]
    layers = [layer('hull', merc_file(case + '-hull', [(to_m(hull), {})]), ['hull'], 'epsg:3857'),
              layer('box', merc_file(case + '-box', [(to_m(box), {})]), ['box'], 'epsg:3857'),
              layer('polys', merc_file(case + '-polys', [(to_m(g), {}) for g in polys]), ['polys'], 'epsg:3857'),
              layer('bnd', merc_file(case + '-bnd', [(to_m(g), {}) for g in boundary]), ['bnd'], 'epsg:3857'),
              layer('dots', merc_file(case + '-dots', [(to_m(g), {}) for g in dots]), ['dots'], 'epsg:3857')]
    xml = mapnik_xml('#ffffff', [
        '<Style name="hull"><Rule><PolygonSymbolizer fill="#deebf7"/></Rule></Style>',
        '<Style name="box"><Rule><LineSymbolizer stroke="#fd8d3c" stroke-width="2"/></Rule></Style>',
        '<Style name="polys"><Rule><PolygonSymbolizer fill="#c7e9c0"/></Rule></Style>',
        '<Style name="bnd"><Rule><LineSymbolizer stroke="#238b45" stroke-width="2.5" stroke-linecap="round"/></Rule></Style>',
        '<Style name="dots"><Rule><PolygonSymbolizer fill="#d62728"/></Rule></Style>',
    ], layers)
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'GEOS (shapely): convex hull and envelope of every vertex, polygon boundaries (rings as lines, the river as is), centroids (area / length weighted) as 4 px disks; PolygonSymbolizer and LineSymbolizer (2 px box, 2.5 px round-capped boundaries)'}


def circles_expr():
    case = 'circles-expr'
    _, to_m = world_px(1)
    items = []
    for g, p in features_px(case, 'pts', 1):
        r = p['r']
        sw = p.get('sw', 2)
        o = p.get('o', 1)
        disk = g.buffer(r, resolution=QUAD)
        # The ring lies outside the radius ($ring = #444444 in case.json), under the same opacity.
        # Opaque: the ring's outer disk, then the fill over it (two abutting anti-aliased polygons
        # would let the background show along their seam). Translucent: the fill and the ring apart.
        if sw > 0 and o == 1:
            items.append((to_m(g.buffer(r + sw, resolution=QUAD)), {'c': '#444444', 'o': o}))
        items.append((to_m(disk), {'c': p['c'], 'o': o}))
        if sw > 0 and o != 1:
            items.append((to_m(g.buffer(r + sw, resolution=QUAD).difference(disk)), {'c': '#444444', 'o': o}))
    xml = mapnik_xml('#ffffff', ['<Style name="c"><Rule><PolygonSymbolizer fill="[c]" fill-opacity="[o]"/></Rule></Style>'],
                     [layer('c', merc_file(case, items), ['c'], 'epsg:3857')])
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'each point as a GEOS disk of radius r and a ring from r to r + stroke width (#444444), in feature order, PolygonSymbolizer with the feature colour and opacity'}


def geom_dash_densify():
    case = 'geom-dash-densify'
    _, to_m = world_px(1)
    f = features_px(case, 's', 1)
    lines = [(to_m(g), {}) for g, _ in f if g.geom_type == 'LineString']
    tri = [(to_m(g), {}) for g, _ in f if g.geom_type == 'Polygon']
    ring = [(to_m(LineString(g.exterior.coords)), {}) for g, _ in f if g.geom_type == 'Polygon']
    # Phase -9: dashes of 12 every 18 px starting 9 px before each line's start, cut along the line.
    dashes = []
    for g, _ in f:
        if g.geom_type != 'LineString':
            continue
        start = -9.0
        while start < g.length:
            a, b = max(0.0, start), min(g.length, start + 12)
            if b > a:
                dashes.append((to_m(substring(g, a, b)), {}))
            start += 18
    layers = [layer('tf', merc_file(case + '-tri', tri), ['tf'], 'epsg:3857'),
              layer('ts', merc_file(case + '-tri2', tri), ['ts'], 'epsg:3857'),
              layer('s1', merc_file(case + '-lines', lines), ['s1'], 'epsg:3857'),
              layer('s2', merc_file(case + '-dashes', dashes), ['s2'], 'epsg:3857'),
              layer('vx', merc_file(case + '-ring', ring), ['vx'], 'epsg:3857')]
    xml = mapnik_xml('#ffffff', [
        '<Style name="tf"><Rule><PolygonSymbolizer fill="#fee391"/></Rule></Style>',
        '<Style name="ts"><Rule><LineSymbolizer stroke="#7f2704" stroke-width="1"/></Rule></Style>',
        '<Style name="s1"><Rule><LineSymbolizer stroke="#08519c" stroke-width="4" stroke-linecap="round" stroke-dasharray="12,6"/></Rule></Style>',
        # The red dashes are cut by GEOS (below) and each offset 5 px to the right, as the style
        # dashes the line first and offsets the pieces (Mapnik would dash the offset curve).
        '<Style name="s2"><Rule><LineSymbolizer stroke="#ef3b2c" stroke-width="2" offset="5"/></Rule></Style>',
        '<Style name="vx"><Rule><LineSymbolizer stroke="#000000" stroke-width="4" stroke-linecap="round" stroke-dasharray="0.01,9.99"/></Rule></Style>',
    ], layers)
    render(case, xml, tile_box(1, 0, 0), 256, 256)
    return {case: 'Mapnik dashes (stroke-dasharray 12,6 with round caps; 0.01,9.99 with 4 px round caps along the triangle ring: its densified vertices); the phase -9 dashes cut by GEOS (shapely substring) and each offset 5 px right; the triangle filled and outlined'}


def source_geojson_natural_earth():
    case = 'source-geojson-natural-earth'
    ne = os.path.join(FIXTURES, 'geojson')
    z, T = 2, 512
    to_px, _ = world_px(z, T)
    _, to_m = world_px(z, T)
    colours = {1: '#f2efe9', 2: '#e8e0d0', 3: '#efe6c8', 4: '#e4ead6', 5: '#f0dcd4', 6: '#dfe3ec'}
    land = ''.join('<Rule><Filter>[MAPCOLOR7] = %d</Filter><PolygonSymbolizer fill="%s"/></Rule>' % (k, c) for k, c in colours.items())
    land += '<Rule><ElseFilter/><PolygonSymbolizer fill="#eeeeee"/></Rule>'
    # Cities: radius linear in pop_max from 1.5 px (0) to 6 px (2e7), clamped; a 0.75 px white ring outside it.
    cities = []
    for f in json.load(open(os.path.join(ne, 'ne_110m_populated_places_simple.geojson')))['features']:
        pop = f['properties']['pop_max']
        r = 1.5 + (6 - 1.5) * min(1.0, max(0.0, pop / 2e7))
        g = to_px(shape(f['geometry']))
        cities.append((to_m(g.buffer(r + 0.75, resolution=QUAD)), {'c': '#ffffff'}))
        cities.append((to_m(g.buffer(r, resolution=QUAD)), {'c': '#c0392b'}))
    layers = [layer('land', os.path.join(ne, 'ne_110m_admin_0_countries.geojson'), ['land']),
              layer('lakes', os.path.join(ne, 'ne_110m_lakes.geojson'), ['lakes']),
              layer('rivers', os.path.join(ne, 'ne_110m_rivers_lake_centerlines.geojson'), ['rivers']),
              layer('borders', os.path.join(ne, 'ne_110m_admin_0_countries.geojson'), ['borders']),
              layer('cities', merc_file(case + '-cities', cities), ['cities'], 'epsg:3857')]
    xml = mapnik_xml('#a6cee3', [
        '<Style name="land">%s</Style>' % land,
        '<Style name="lakes"><Rule><PolygonSymbolizer fill="#a6cee3"/></Rule></Style>',
        '<Style name="rivers"><Rule><LineSymbolizer stroke="#5b9bd5" stroke-width="1.2"/></Rule></Style>',
        '<Style name="borders"><Rule><LineSymbolizer stroke="#555555" stroke-width="1.5"/></Rule></Style>',
        '<Style name="cities"><Rule><PolygonSymbolizer fill="[c]"/></Rule></Style>',
    ], layers)
    render(case, xml, tile_box(z, 2, 1), T, T)
    return {case: 'Natural Earth 110m countries (PolygonSymbolizer by MAPCOLOR7), lakes, rivers (1.2 px), borders (1.5 px) read by Mapnik from the fixtures; cities as GEOS disks (radius linear in pop_max, 1.5 to 6 px) with a 0.75 px white ring; tile 2/2/1 at 512 px'}


def mvt_path(src, z, x, y):
    """The MVT file at a z/x/y path, where GDAL's MVT driver reads the tile address from."""
    d = os.path.join(TMP, 'mvt', str(z), str(x))
    os.makedirs(d, exist_ok=True)
    dst = os.path.join(d, '%d.pbf' % y)
    with open(src, 'rb') as f, open(dst, 'wb') as g:
        g.write(f.read())
    return dst


def ogr_layer(name, path, layer_name, styles):
    return ('<Layer name="%s" srs="epsg:3857">%s<Datasource><Parameter name="type">ogr</Parameter>'
            '<Parameter name="file">%s</Parameter><Parameter name="layer">%s</Parameter></Datasource></Layer>') % (
        name, ''.join('<StyleName>%s</StyleName>' % s for s in styles), path, layer_name)


def source_mvt_street():
    case = 'source-mvt-street'
    path = mvt_path(os.path.join(FIXTURES, 'mvt', 'vector-tile-js', '14-8801-5371.mvt'), 14, 8801, 5371)
    order = [('landuse', 'lu'), ('water', 'wa'), ('building', 'bu'), ('tunnel', 'tu'), ('road', 'rd'), ('bridge', 'br')]
    xml = mapnik_xml('#f8f4f0', [
        '<Style name="lu"><Rule><PolygonSymbolizer fill="#cfe5b4"/></Rule></Style>',
        '<Style name="wa"><Rule><PolygonSymbolizer fill="#9fc7ef"/></Rule></Style>',
        '<Style name="bu"><Rule><PolygonSymbolizer fill="#d9d0c9"/></Rule></Style>',
        '<Style name="tu"><Rule><LineSymbolizer stroke="#bbbbbb" stroke-width="1.5"/></Rule></Style>',
        '<Style name="rd"><Rule><LineSymbolizer stroke="#7f7f7f" stroke-width="1.5"/></Rule></Style>',
        '<Style name="br"><Rule><LineSymbolizer stroke="#555555" stroke-width="2.5"/></Rule></Style>',
    ], [ogr_layer(name, path, name, [st]) for name, st in order])
    render(case, xml, tile_box(14, 8801, 5371), 512, 512)
    return {case: "the Berlin tile 14/8801/5371 read by GDAL's MVT driver through Mapnik's ogr plugin (which clips features to the tile), landuse, water, building fills, tunnel/road/bridge strokes (1.5, 1.5, 2.5 px, polygons outlined too), 512 px"}


def source_mvt_npm_chicago():
    case = 'source-mvt-npm-chicago'
    from osgeo import ogr
    z, x0, y0, w, h = 13, 537950, 779400, 384, 320
    _, to_m = world_px(z)
    fixtures = os.path.join(ROOT, 'node_modules', '@mapbox', 'mvt-fixtures', 'real-world', 'chicago')
    tiles = [(x, y) for y in (3044, 3045) for x in (2101, 2102)]
    paths = {t: mvt_path(os.path.join(fixtures, '%d-%d-%d.mvt' % (z, t[0], t[1])), z, t[0], t[1]) for t in tiles}
    landuse = {'park': '#b5d99c', 'grass': '#cde8b0', 'hospital': '#f4d4d4', 'school': '#efe3c0'}
    lu = ''.join('<Rule><Filter>[class] = \'%s\'</Filter><PolygonSymbolizer fill="%s"/></Rule>' % (k, c) for k, c in landuse.items())
    lu += '<Rule><ElseFilter/><PolygonSymbolizer fill="#e4dccf"/></Rule>'
    roads = [('motorway', 3, '#e892a2'), ('trunk', 2.5, '#f9b29c'), ('primary', 2, '#fcd6a4'), ('secondary', 1.5, '#ffffff')]
    rd = ''.join('<Rule><Filter>[class] = \'%s\'</Filter><LineSymbolizer stroke="%s" stroke-width="%s"/></Rule>' % (k, c, wd) for k, wd, c in roads)
    rd += '<Rule><ElseFilter/><LineSymbolizer stroke="#ffffff" stroke-width="0.75"/></Rule>'
    # POIs: GDAL reads the points; each a 2.5 px disk with a 1 px white ring (GEOS), in tile order.
    pois = []
    for t in tiles:
        ds = ogr.Open(paths[t])
        lyr = ds.GetLayerByName('poi_label')
        for feat in lyr or []:
            g = feat.GetGeometryRef()
            if g is None or g.GetGeometryName() != 'POINT':
                continue
            n = 256 * 2 ** z
            px = Point((g.GetX() + HALF) / (2 * HALF) * n, (HALF - g.GetY()) / (2 * HALF) * n)
            pois.append((to_m(px.buffer(3.5, resolution=QUAD)), {'c': '#ffffff'}))
            pois.append((to_m(px.buffer(2.5, resolution=QUAD)), {'c': '#7b3294'}))
    layers = []
    for name, st in [('landuse', 'lu'), ('water', 'wa'), ('road', 'rd')]:
        layers += [ogr_layer('%s-%d-%d' % (name, t[0], t[1]), paths[t], name, [st]) for t in tiles]
    layers.append(layer('pois', merc_file(case + '-pois', pois), ['po'], 'epsg:3857'))
    xml = mapnik_xml('#f2efe9', [
        '<Style name="lu">%s</Style>' % lu,
        '<Style name="wa"><Rule><PolygonSymbolizer fill="#9fc7ef"/></Rule></Style>',
        '<Style name="rd">%s</Style>' % rd,
        '<Style name="po"><Rule><PolygonSymbolizer fill="[c]"/></Rule></Style>',
    ], layers)
    render(case, xml, window_box(z, x0, y0, w, h), w, h)
    return {case: "the four z13 Chicago tiles of @mapbox/mvt-fixtures under the 384 x 320 window read by GDAL's MVT driver (Mapnik ogr plugin, clipped to each tile): landuse by class, water, roads by class (widths 3 to 0.75 px); POIs read by GDAL as GEOS disks (2.5 px, 1 px white ring)"}


BLUR_MARGIN = 40  # px around the window: past 3 sigma of the largest blur (10 px), so libvips' edge copy never shows


def blur_shapes():
    """The unblurred fills with a margin; tests/witness/mapnik.test.ts blurs them with libvips."""
    case = 'blur-shapes'
    s = style_of(case)
    data = s['sources']['shapes']['data']
    z, tx, ty, T, M = 4, 8, 5, 256, BLUR_MARGIN
    for side, colour in (('left', '#ffe066'), ('right', '#66ddff')):
        path = geojson_file('%s-%s' % (case, side), {'type': 'FeatureCollection', 'features': [f for f in data['features'] if f['properties']['side'] == side]})
        xml = mapnik_xml(None, ['<Style name="f"><Rule><PolygonSymbolizer fill="%s"/></Rule></Style>' % colour], [layer('f', path, ['f'])])
        render(case, xml, window_box(z, tx * T - M, ty * T - M, T + 2 * M, T + 2 * M), T + 2 * M, T + 2 * M, 'mapnik-' + side)
    return {case: 'the left (#ffe066) and right (#66ddff) fills drawn by Mapnik on transparent, 40 px beyond the tile; the test blurs them with libvips (sigma 1.5 and 10) and lays them over #202840 (W3C source-over)'}


def seam_mvt_blur():
    case = 'seam-mvt-blur'
    z, x0, y0, w, h, M = 14, 1076096, 1558912, 256, 256, BLUR_MARGIN
    fixtures = os.path.join(ROOT, 'node_modules', '@mapbox', 'mvt-fixtures', 'real-world', 'chicago')
    tiles = [(x, y) for y in (3044, 3045) for x in (2101, 2102)]
    paths = {t: mvt_path(os.path.join(fixtures, '13-%d-%d.mvt' % t), 13, t[0], t[1]) for t in tiles}
    layers = []
    for name, st in [('landuse', 'lu'), ('water', 'wa')]:
        layers += [ogr_layer('%s-%d-%d' % (name, t[0], t[1]), paths[t], name, [st]) for t in tiles]
    xml = mapnik_xml('#ffffff', [
        '<Style name="lu"><Rule><PolygonSymbolizer fill="#4caf50"/></Rule></Style>',
        '<Style name="wa"><Rule><PolygonSymbolizer fill="#1e64c8"/></Rule></Style>',
    ], layers)
    render(case, xml, window_box(z, x0 - M, y0 - M, w + 2 * M, h + 2 * M), w + 2 * M, h + 2 * M, 'mapnik-unblurred')
    return {case: "the z13 Chicago tiles (GDAL's MVT driver, each clipped to its square) drawn at z14 over white, 40 px beyond the window; the test blurs it with libvips (sigma 6)"}


def heatmap_over_countries():
    """The map under the heatmap; the test draws the heatmap (density closed form, d3) over it."""
    case = 'heatmap-over-countries'
    s = style_of(case)
    path = geojson_file(case, s['sources']['countries']['data'])
    names = {'France': '#e8d8b0', 'Switzerland': '#f2c9a0', 'Germany': '#cfe0b4', 'Italy': '#d9c9e6', 'Austria': '#f0e6a8', 'Liechtenstein': '#bfd8e0'}
    fills = ''.join('<Rule><Filter>[name] = \'%s\'</Filter><PolygonSymbolizer fill="%s"/></Rule>' % (k, c) for k, c in names.items())
    fills += '<Rule><ElseFilter/><PolygonSymbolizer fill="#e6e0d4"/></Rule>'
    xml = mapnik_xml('#cfe3f0', ['<Style name="fills">%s</Style>' % fills, '<Style name="borders"><Rule><LineSymbolizer stroke="#ffffff" stroke-width="1"/></Rule></Style>'],
                     [layer('fills', path, ['fills']), layer('borders', path, ['borders'])])
    render(case, xml, tile_box(6, 33, 22), 256, 256, 'mapnik-map')
    return {case: 'the countries (the style\'s inline world-atlas 50m extract) filled by name over #cfe3f0 with 1 px white borders, tile 6/33/22; the test lays the heatmap (density closed form, d3 rgb ramp) over it at 0.85 (W3C)'}


def drop_shadow_func():
    """The shape mask, the body and the outlines with a margin; the test blurs the mask with libvips."""
    case = 'drop-shadow-func'
    s = style_of(case)
    path = geojson_file(case, s['sources']['shapes']['data'])
    z, x0, y0, w, h, M = 3, 768, 768, 512, 384, BLUR_MARGIN
    box = window_box(z, x0 - M, y0 - M, w + 2 * M, h + 2 * M)
    # ink = #c0603a (case.json); the outline width is the style's zoom curve at z3:
    # interpolate linear 0 -> 0.5, 4 -> 2.5, i.e. 2 px.
    for name, sym in (('mask', '<PolygonSymbolizer fill="#000000"/>'), ('body', '<PolygonSymbolizer fill="#c0603a"/>'),
                      ('edges', '<LineSymbolizer stroke="#1b3440" stroke-width="2" stroke-linejoin="round"/>')):
        xml = mapnik_xml(None, ['<Style name="s"><Rule>%s</Rule></Style>' % sym], [layer('s', path, ['s'])])
        render(case, xml, box, w + 2 * M, h + 2 * M, 'mapnik-' + name)
    return {case: 'the shapes as a black mask, the body (#c0603a) and 2 px round-joined #1b3440 outlines (the zoom curve at z3) drawn by Mapnik 40 px beyond the 512 x 384 window; the test blurs the mask with libvips (sigma 6 = zoom 3 x 2), lays the body over it, that over #f4f1ea, the outlines over all (W3C)'}


def density_contours(case, levels, margin=48):
    """GDAL's contours (ContourGenerateEx, pixel centres) of the density closed form of a case's
    points (spec falloff, radius and intensity of its density node) on its tile and a margin, as
    GeoJSON in EPSG:3857 with the level of each line."""
    import numpy as np
    from osgeo import gdal, ogr, osr
    s = style_of(case)
    spec = json.load(open(os.path.join(GOLDEN, case, 'case.json')))
    z, tx, ty = (int(v) for v in spec['tile'].split('/'))
    T = spec.get('tileSize', 256)
    dens = [n for n in s['nodes'].values() if n['op'] == 'density'][0]
    radius, intensity = float(dens['radius']), float(dens.get('intensity', 1))
    to_px, _ = world_px(z, T)
    pts = [to_px(shape(f['geometry'])) for f in s['sources']['pts']['data']['features']]
    n = T + 2 * margin
    x0, y0 = tx * T - margin, ty * T - margin
    cx = x0 + np.arange(n) + 0.5
    cy = y0 + np.arange(n) + 0.5
    X, Y = np.meshgrid(cx, cy)
    field = np.zeros((n, n))
    for p in pts:
        d2 = (X - p.x) ** 2 + (Y - p.y) ** 2
        field += np.where(d2 <= radius * radius, intensity * np.exp(-4.5 * d2 / (radius * radius)) / math.sqrt(2 * math.pi), 0)
    res = 2 * HALF / (T * 2 ** z)
    ds = gdal.GetDriverByName('MEM').Create('', n, n, 1, gdal.GDT_Float64)
    ds.SetGeoTransform((-HALF + x0 * res, res, 0, HALF - y0 * res, 0, -res))
    ds.GetRasterBand(1).WriteArray(field)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(3857)
    mem = ogr.GetDriverByName('Memory').CreateDataSource('c')
    lyr = mem.CreateLayer('c', srs, ogr.wkbLineString)
    lyr.CreateField(ogr.FieldDefn('id', ogr.OFTInteger))
    lyr.CreateField(ogr.FieldDefn('level', ogr.OFTReal))
    gdal.ContourGenerateEx(ds.GetRasterBand(1), lyr, ['FIXED_LEVELS=' + ','.join(str(v) for v in levels), 'ID_FIELD=0', 'ELEV_FIELD=1'])
    feats = []
    for f in lyr:
        feats.append({'type': 'Feature', 'properties': {'level': f.GetField('level')}, 'geometry': json.loads(f.GetGeometryRef().ExportToJson())})
    path = geojson_file(case + '-contours', {'type': 'FeatureCollection', 'features': feats})
    return path, tile_box(z, tx, ty), T


def mix(a, b, t):
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return '#%02x%02x%02x' % tuple(int(round(x + (y - x) * t)) for x, y in zip(ca, cb))


def contour_density():
    case = 'contour-density'
    levels = [round(0.2 + 0.4 * k, 6) for k in range(12)]
    path, box, T = density_contours(case, levels)
    stops = [(0.2, '#3b4cc0'), (1.0, '#8db0fe'), (2.2, '#f49a7b'), (3.0, '#b40426')]

    def colour(v):
        # The style's interpolate-linear colour curve over 'level' (channels linear in sRGB, as MapLibre).
        if v <= stops[0][0]:
            return stops[0][1]
        for (a, ca), (b, cb) in zip(stops, stops[1:]):
            if v <= b:
                return mix(ca, cb, (v - a) / (b - a))
        return stops[-1][1]
    rules = ''.join('<Rule><Filter>[level] &gt; %s and [level] &lt; %s</Filter><LineSymbolizer stroke="%s" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/></Rule>' % (v - 1e-6, v + 1e-6, colour(v)) for v in levels)
    xml = mapnik_xml('#f7f4ec', ['<Style name="iso">%s</Style>' % rules], [layer('iso', path, ['iso'], 'epsg:3857')])
    render(case, xml, box, T, T)
    return {case: 'GDAL ContourGenerateEx (levels 0.2 + 0.4 k) of the density closed form (spec falloff, radius 30, intensity 0.5, pixel centres) on the tile and 48 px around it; Mapnik LineSymbolizer 1.5 px round, coloured by level along the style\'s linear colour curve, over #f7f4ec'}


def contour_levels_param():
    case = 'contour-levels-param'
    path, box, T = density_contours(case, [0.5, 1, 2])  # [2, $mid = 1, 0.5, 2] sorted, de-duplicated
    rules = ('<Rule><Filter>[level] &lt; 0.9</Filter><LineSymbolizer stroke="#2b8cbe" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/></Rule>'
             '<Rule><Filter>[level] &gt;= 0.9 and [level] &lt; 1.9</Filter><LineSymbolizer stroke="#e34a33" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/></Rule>'
             '<Rule><Filter>[level] &gt;= 1.9</Filter><LineSymbolizer stroke="#54278f" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/></Rule>')
    xml = mapnik_xml(None, ['<Style name="iso">%s</Style>' % rules], [layer('iso', path, ['iso'], 'epsg:3857')])
    render(case, xml, box, T, T, 'mapnik-lines')
    return {case: 'GDAL ContourGenerateEx at levels 0.5, 1, 2 of the density closed form; Mapnik LineSymbolizer 2 px round, the style\'s step colours, on transparent; the test lays them over the heatmap witness (density closed form, d3 rgb ramp)'}


CASES = [fill_holes_expr, stroke_joins_caps, geom_boolean, geom_buffer, geom_measures, circles_expr, geom_dash_densify, source_geojson_natural_earth, source_mvt_street, source_mvt_npm_chicago, blur_shapes, seam_mvt_blur, heatmap_over_countries, drop_shadow_func, contour_density, contour_levels_param]


def main():
    only = sys.argv[1:]
    path = os.path.join(OUT, 'mapnik-versions.json')
    info = json.load(open(path)) if os.path.exists(path) else {'cases': {}}
    for fn in CASES:
        if only and fn.__name__.replace('_', '-') not in only:
            continue
        info['cases'].update(fn())
    import shapely
    from shapely import geos
    info.update({'shapely': shapely.__version__, 'geos': geos.geos_version_string, 'gdal_ogr_mvt': __import__('osgeo.gdal', fromlist=['gdal']).__version__,
                 'mapnik': mapnik.mapnik_version(), 'mapnik_string': mapnik.mapnik_version_string() if hasattr(mapnik, 'mapnik_version_string') else str(mapnik.mapnik_version()),
                 'python': sys.version.split()[0], 'script': 'scripts/witness/mapnik-references.py',
                 'debian': 'libmapnik3.1 3.1.0+ds-3+b1, python3-mapnik 1:0.0~20200224-7da019cf9-4+b1, AGG renderer'})
    with open(path, 'w') as f:
        json.dump(info, f, indent=1, sort_keys=True)
        f.write('\n')


main()
