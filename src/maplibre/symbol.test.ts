// Symbol layers: what a MapLibre symbol layer becomes (text nodes, fonts through the fontstack
// mapping, icons through icon + stamp) and that the converted graph draws what the same `text` /
// `stamp` nodes written by hand draw (the text op itself is witnessed by HarfBuzz and FreeType in
// src/ops/text/witness.test.ts; the sprite crop by libvips in tests/witness/maplibre-ops.test.ts).
import path from 'node:path';
import { NodeLoader } from '../hosts/node/loader.js';
import { Renderer } from '../index.js';
import { convertMapLibre } from './convert.js';
import { defaultFontFile, fontFiles, iconNames } from './symbol.js';
import { formatNote, type MlStyle } from './types.js';

const loader = () => new NodeLoader({ baseDir: path.resolve('.'), allowOutside: true });

const points = {
  type: 'geojson',
  data: {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', properties: { name: 'Firenze', rank: 1 }, geometry: { type: 'Point', coordinates: [11.25, 43.77] } },
      { type: 'Feature', properties: { name: 'Prato', rank: 2 }, geometry: { type: 'Point', coordinates: [11.1, 43.88] } },
      {
        type: 'Feature',
        properties: { name: 'Lago' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [11.3, 43.6],
              [11.5, 43.6],
              [11.5, 43.7],
              [11.3, 43.7],
              [11.3, 43.6],
            ],
          ],
        },
      },
    ],
  },
};
const style = (layers: unknown[], extra: Record<string, unknown> = {}): MlStyle =>
  ({ version: 8, sources: { p: points }, layers, ...extra }) as unknown as MlStyle;

describe('MapLibre symbol layers', () => {
  test('fontstacks map to DejaVu by their words, and the mapping is overridable (style metadata, then options)', () => {
    expect(defaultFontFile('Noto Sans Regular')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    expect(defaultFontFile('Noto Sans Bold')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
    expect(defaultFontFile('Noto Sans Italic')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf');
    expect(defaultFontFile('Open Sans Semibold Italic')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf');
    expect(defaultFontFile('PT Serif Bold')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf');
    expect(defaultFontFile('Roboto Condensed Italic')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Oblique.ttf');
    expect(defaultFontFile('Ubuntu Mono')).toBe('npm:dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf');
    // The script fallbacks of the text op's default list follow the mapped font.
    expect(fontFiles(['Noto Sans Regular'], {})).toEqual([
      'npm:dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
      'npm:@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff',
      'npm:@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff',
    ]);
    expect(fontFiles(['A', 'B'], { B: 'fonts/b.ttf', A: ['fonts/a.otf', 'fonts/b.ttf'] }).slice(0, 2)).toEqual(['fonts/a.otf', 'fonts/b.ttf']);

    const layer = { id: 'l', type: 'symbol', source: 'p', layout: { 'text-field': '{name}', 'text-font': ['Noto Sans Bold'] } };
    const meta = convertMapLibre(style([layer], { metadata: { 'tilegraph:fonts': { 'Noto Sans Bold': 'fonts/NotoSans-Bold.ttf' } } }));
    expect((meta.style.nodes['l-text']!.font as string[])[0]).toBe('fonts/NotoSans-Bold.ttf');
    const opt = convertMapLibre(style([layer], { metadata: { 'tilegraph:fonts': { 'Noto Sans Bold': 'x.ttf' } } }), { fonts: { 'Noto Sans Bold': 'y.ttf' } });
    expect((opt.style.nodes['l-text']!.font as string[])[0]).toBe('y.ttf');
  });

  test('a symbol layer becomes text nodes: tokens, sizes, halo, anchor, em offsets, sort key; later layers avoid earlier labels', () => {
    const { style: doc, notes } = convertMapLibre(
      style([
        {
          id: 'towns',
          type: 'symbol',
          source: 'p',
          layout: {
            'text-field': '{name}',
            'text-size': 14,
            'text-transform': 'uppercase',
            'text-anchor': 'top',
            'text-offset': [0, 1],
            'text-max-width': 8,
            'text-letter-spacing': 0.1,
            'symbol-sort-key': ['get', 'rank'],
          },
          paint: { 'text-color': '#333', 'text-halo-color': 'white', 'text-halo-width': 1.5 },
        },
        { id: 'roads', type: 'symbol', source: 'p', layout: { 'text-field': ['get', 'name'], 'symbol-placement': 'line', 'symbol-spacing': 300 } },
      ]),
    );
    expect(notes.map(formatNote)).toEqual([]);
    expect(doc.nodes['towns-text']).toMatchObject({
      op: 'text',
      features: '@towns-features',
      'text-expr': ['upcase', ['to-string', ['to-string', ['get', 'name']]]],
      size: 14,
      color: '#333333',
      'halo-color': '#ffffff',
      'halo-width': 1.5,
      placement: 'point',
      anchor: 'top',
      offset: [0, 14],
      'max-width': 112,
      'letter-spacing': expect.closeTo(1.4, 9),
      'priority-expr': ['-', 0, ['to-number', ['get', 'rank'], 0]],
    });
    // Point placement labels polygons at their poles, as MapLibre does.
    expect(doc.nodes['towns-text-polygons']).toMatchObject({ placement: 'polygon', features: '@towns-polygons' });
    // The upper layer is placed first; the lower keeps clear of it (MapLibre places from the top down).
    expect(doc.nodes['roads-text']).toMatchObject({ placement: 'line', spacing: 300 });
    expect(doc.nodes['roads-text']!.avoid).toBeUndefined();
    expect(doc.nodes['towns-text']!.avoid).toEqual(['@roads-text']);
    expect(doc.nodes['towns-text-polygons']!.avoid).toEqual(['@roads-text']);
  });

  test('what a symbol layer cannot honour is reported', () => {
    const { notes } = convertMapLibre(
      style([
        {
          id: 's',
          type: 'symbol',
          source: 'p',
          layout: { 'text-field': '{name}', 'text-rotate': 30, 'icon-image': ['get', 'kind'], 'text-allow-overlap': true },
        },
      ]),
    );
    expect(notes.map(formatNote)).toEqual([
      "layer 's' icon-image: icon names computed from data (not written out in the expression) are not supported; no icons are drawn",
      "layer 's' text-rotate: rotated labels are not supported; drawn unrotated",
      "layer 's' text-allow-overlap: labels never overlap one another",
    ]);
  });

  test('the converted layer draws what the same text node written by hand draws', async () => {
    const ml = style([
      { id: 'bg', type: 'background', paint: { 'background-color': '#f0ece0' } },
      {
        id: 'towns',
        type: 'symbol',
        source: 'p',
        layout: { 'text-field': ['get', 'name'], 'text-size': 13, 'text-font': ['Noto Sans Bold'], 'text-anchor': 'left', 'text-offset': [0.5, 0] },
        paint: { 'text-color': '#202020', 'text-halo-color': '#ffffff', 'text-halo-width': 1 },
      },
    ]);
    const hand = {
      output: 'out',
      'zoom-basis': 512,
      sources: convertMapLibre(ml).style.sources,
      nodes: {
        bg: { op: 'solid', color: '#f0ece0' },
        f: { op: 'features', source: 'p' },
        t: {
          op: 'text',
          features: '@f',
          'text-expr': ['get', 'name'],
          font: fontFiles(['Noto Sans Bold'], {}),
          size: 13,
          color: '#202020',
          'halo-color': '#ffffff',
          'halo-width': 1,
          anchor: 'left',
          offset: [6.5, 0],
          'max-width': 130,
          'max-extent': 96,
          rounds: 1,
        },
        out: { op: 'blend', base: '@bg', over: '@t' },
      },
    };
    const tile = { z: 9, x: 271, y: 186 };
    const a = await Renderer.create(ml, { loader: loader() }).renderTile(tile);
    const b = await Renderer.create(hand, { loader: loader() }).renderTile(tile);
    // Labels are drawn: some pixels are dark.
    let dark = 0;
    for (let i = 0; i < a.data.length; i += 4) if (a.data[i]! < 0.3) dark++;
    expect(dark).toBeGreaterThan(30);
    let maxDiff = 0;
    for (let i = 0; i < a.data.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a.data[i]! - b.data[i]!));
    expect(maxDiff).toBeLessThan(1e-6);
  });

  test('a constant icon-image is stamped from the sprite at icon-size', async () => {
    const sprite = 'tests/maplibre/assets/sprites/emerald';
    const ml = style([{ id: 'poi', type: 'symbol', source: 'p', layout: { 'icon-image': 'interstate_3', 'icon-size': 0.5, 'icon-allow-overlap': true } }], {
      sprite,
    });
    const { style: doc, notes } = convertMapLibre(ml);
    expect(notes).toEqual([]);
    expect(doc.nodes['poi-icon']).toEqual({ op: 'icon', sprite, name: 'interstate_3', missing: 'transparent' });
    expect(doc.nodes['poi-icons']).toMatchObject({ op: 'stamp', features: '@poi-features', sprite: '@poi-icon', scale: 0.5 });
    // The 50x43 icon at half size: about 25x22 opaque-ish pixels around each of the two points.
    const out = await Renderer.create(ml, { loader: loader() }).renderTile({ z: 9, x: 271, y: 186 });
    let covered = 0;
    for (let i = 3; i < out.data.length; i += 4) covered += out.data[i]!;
    expect(covered).toBeGreaterThan(2 * 25 * 21 * 0.5);
    expect(covered).toBeLessThan(2 * 25 * 22 * 1.05);
  });

  test('a data-driven icon-image: each name its expression gives stamps the features that take it', async () => {
    const sprite = 'tests/maplibre/assets/sprites/emerald';
    const byRank = ['match', ['get', 'rank'], 1, 'interstate_3', 'us_highway_2'];
    const ml = style([{ id: 'poi', type: 'symbol', source: 'p', layout: { 'icon-image': byRank, 'icon-allow-overlap': true } }], { sprite });
    const { style: doc, notes } = convertMapLibre(ml);
    expect(notes).toEqual([]);
    expect(doc.nodes['poi-icon-0']).toEqual({ op: 'icon', sprite, name: 'interstate_3', missing: 'transparent' });
    expect(doc.nodes['poi-icon-1']).toEqual({ op: 'icon', sprite, name: 'us_highway_2', missing: 'transparent' });
    // The same pixels as each icon written as a constant over its own feature (filtered by hand).
    const constant = (name: string, rank: number) =>
      style([{ id: 'poi', type: 'symbol', source: 'p', filter: ['==', ['get', 'rank'], rank], layout: { 'icon-image': name, 'icon-allow-overlap': true } }], {
        sprite,
      });
    const tile = { z: 9, x: 271, y: 186 };
    const got = await Renderer.create(ml, { loader: loader() }).renderTile(tile);
    const a = await Renderer.create(constant('interstate_3', 1), { loader: loader() }).renderTile(tile);
    const b = await Renderer.create(constant('us_highway_2', 2), { loader: loader() }).renderTile(tile);
    let covered = 0;
    let maxDiff = 0;
    for (let i = 0; i < got.data.length; i += 4) {
      // The two icons do not overlap here: each pixel is one of them (or neither).
      const ref = a.data[i + 3]! > 0 ? a : b;
      for (let k = 0; k < 4; k++) maxDiff = Math.max(maxDiff, Math.abs(got.data[i + k]! - ref.data[i + k]!));
      covered += got.data[i + 3]!;
    }
    expect(covered).toBeGreaterThan(100);
    expect(maxDiff).toBe(0);
    expect(iconNames(['coalesce', ['image', ['get', 'x']], 'dot'])).toBeUndefined();
    expect(iconNames(['step', ['zoom'], 'dot', 12, ['case', ['has', 'a'], 'post_icon', 'dot']])).toEqual(['dot', 'post_icon']);
  });
});
