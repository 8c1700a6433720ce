// features: samples a source layer for the node's canvas, with filter-expr, min/max zoom and
// min-zoom-field; geometry arrives in world pixels at the render zoom.
import { capture, win } from '../../../tests/helpers/scalars.js';
import path from 'node:path';
import { buildPlan } from '../../graph/build.js';
import { NodeLoader } from '../../hosts/node/loader.js';
import type { Features, Raster } from '../../types.js';

const points = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'a', rank: 1, minz: 0 }, geometry: { type: 'Point', coordinates: [0, 0] } },
    { type: 'Feature', properties: { name: 'b', rank: 5, minz: 3 }, geometry: { type: 'Point', coordinates: [90, 0] } },
    { type: 'Feature', properties: { name: 'c', rank: 9, minz: 0 }, geometry: { type: 'Point', coordinates: [-90, 0] } },
  ],
};

async function sample(node: Record<string, unknown>, z: number): Promise<Features['groups']> {
  const style = {
    output: 'out',
    sources: { pts: { type: 'geojson', data: points } },
    nodes: { f: { op: 'features', source: 'pts', ...node }, out: { op: 'circles', features: '@f', radius: 1 } },
  };
  const size = 256 * 2 ** z;
  const got = await capture(style, ['f'], { ...win(z), width: size, height: size });
  const v = got.get('f');
  if (v?.kind !== 'features') throw new Error('no features captured');
  return v.groups;
}

const names = (g: Features['groups']) => g.map((x) => x.properties.name).sort();

describe('features', () => {
  test('every feature of the layer, in world pixels at the render zoom', async () => {
    const g = await sample({}, 1);
    expect(names(g)).toEqual(['a', 'b', 'c']);
    const a = g.find((x) => x.properties.name === 'a')!;
    expect(Array.from(a.points)).toEqual([256, 256]); // lon 0, lat 0 at z1 (512 px world)
    const b = g.find((x) => x.properties.name === 'b')!;
    expect(b.points[0]).toBeCloseTo(384, 6);
  });

  test('filter-expr keeps the features for which it holds', async () => {
    expect(names(await sample({ 'filter-expr': ['>', ['get', 'rank'], 3] }, 1))).toEqual(['b', 'c']);
    expect(names(await sample({ 'filter-expr': ['==', ['get', 'name'], 'a'] }, 1))).toEqual(['a']);
  });

  test('two filters over the same sampled canvas each keep their own features (the filtered lists are kept per filter)', async () => {
    const style = {
      output: 'out',
      sources: { pts: { type: 'geojson', data: points } },
      nodes: {
        f: { op: 'features', source: 'pts', 'filter-expr': ['>', ['get', 'rank'], 3] },
        g: { op: 'features', source: 'pts', 'filter-expr': ['==', ['get', 'name'], 'a'] },
        h: { op: 'features', source: 'pts', 'min-zoom-field': 'minz' },
        cf: { op: 'circles', features: '@f', radius: 1 },
        cg: { op: 'circles', features: '@g', radius: 1 },
        ch: { op: 'circles', features: '@h', radius: 1 },
        fg: { op: 'blend', base: '@cf', over: '@cg' },
        out: { op: 'blend', base: '@fg', over: '@ch' },
      },
    };
    for (let i = 0; i < 2; i++) {
      const got = await capture(style, ['f', 'g', 'h'], { ...win(1), width: 512, height: 512 });
      const of = (id: string) => {
        const v = got.get(id);
        if (v?.kind !== 'features') throw new Error('no features captured');
        return names(v.groups);
      };
      expect([of('f'), of('g'), of('h')]).toEqual([['b', 'c'], ['a'], ['a', 'c']]);
    }
  });

  test('min-zoom / max-zoom give an empty layer outside the range', async () => {
    expect(await sample({ 'min-zoom': 2 }, 1)).toEqual([]);
    expect(names(await sample({ 'min-zoom': 2 }, 2))).toEqual(['a', 'b', 'c']);
    expect(await sample({ 'max-zoom': 1 }, 2)).toEqual([]);
  });

  test('a filtered GeoJSON layer gives every canvas the same list of whole features (text shares work per list)', async () => {
    const { CpuBackend, Renderer } = await import('../../index.js');
    const { hookedBackend } = await import('../../../tests/helpers/backends.js');
    const lists: unknown[] = [];
    const backend = hookedBackend(new CpuBackend(), {
      after(_op, ctx, v) {
        if (ctx.id === 'f' && v.kind === 'features') lists.push((v as Features).whole!.features());
      },
    });
    const style = {
      output: 'out',
      sources: { pts: { type: 'geojson', data: points } },
      nodes: { f: { op: 'features', source: 'pts', 'filter-expr': ['>', ['get', 'rank'], 2] }, out: { op: 'circles', features: '@f', radius: 1 } },
    };
    const r = Renderer.create(style);
    for (const x of [0, 1]) await r.renderTile({ z: 1, x, y: 0 }, undefined, { backend });
    expect(lists).toHaveLength(2);
    expect(lists[1]).toBe(lists[0]);
    expect((lists[0] as { properties: { name: string } }[]).map((w) => w.properties.name)).toEqual(['b', 'c']);
  });

  test("tile pieces through filter-expr (filtered per source tile): the canvas's pieces that pass the filter, in their order", async () => {
    // The witness is the definition: the pieces a filtered node hands out are those of an
    // unfiltered node on the same layer (the same source tiles, the same objects) that pass the
    // filter, in the same order, for a canvas over four source tiles and a canvas inside one.
    const loader = new NodeLoader({ baseDir: path.resolve('.') });
    const style = {
      output: 'out',
      sources: { s: { type: 'mvt', tiles: ['npm:@mapbox/mvt-fixtures/real-world/chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 } },
      nodes: {
        f: { op: 'features', source: 's', layer: 'road', 'filter-expr': ['==', ['get', 'class'], 'street'] },
        g: { op: 'features', source: 's', layer: 'road' },
        cf: { op: 'centroid', features: '@f' },
        cg: { op: 'centroid', features: '@g' },
        df: { op: 'circles', features: '@cf', radius: 1 },
        dg: { op: 'circles', features: '@cg', radius: 1 },
        out: { op: 'blend', base: '@df', over: '@dg' },
      },
    };
    for (const canvas of [
      { z: 13, x0: 2102 * 256 - 100, y0: 3045 * 256 - 70, width: 200, height: 150, tileSize: 256 },
      { z: 14, x0: 4202 * 256 + 60, y0: 6089 * 256 + 60, width: 128, height: 128, tileSize: 256 },
    ]) {
      const got = await capture(style, ['f', 'g'], canvas, {}, { loader });
      const all = await (got.get('g') as Features).pieces!();
      const kept = await (got.get('f') as Features).pieces!();
      const want = all.filter((w) => w.properties.class === 'street');
      expect({ kept: kept.length, some: want.length > 20, fewer: want.length < all.length }).toEqual({ kept: want.length, some: true, fewer: true });
      expect(kept.every((w, i) => w === want[i])).toBe(true);
    }
  });

  test('min-zoom-field drops features whose value exceeds the zoom', async () => {
    expect(names(await sample({ 'min-zoom-field': 'minz' }, 2))).toEqual(['a', 'c']);
    expect(names(await sample({ 'min-zoom-field': 'minz' }, 3))).toEqual(['a', 'b', 'c']);
  });

  test('a node read only by text nodes samples no groups where its source gives whole features or pieces; a reader of its groups gets them', async () => {
    // The text op reads whole features (GeoJSON) and tile pieces (MVT) only: sampling the canvas's
    // groups over its label margin was work nothing read (build.ts markGroupsUnread).
    const doc = (strokeToo: boolean) => ({
      output: 'out',
      sources: { pts: { type: 'geojson', data: points } },
      nodes: {
        f: { op: 'features', source: 'pts' },
        both: { op: 'features', source: 'pts' },
        names: { op: 'text', features: '@f', 'text-expr': ['get', 'name'], size: 12 },
        dots: { op: 'circles', features: '@both', radius: 2 },
        more: { op: 'text', features: '@both', 'text-expr': ['get', 'name'], size: 12 },
        // A reader of f's groups whose margin is too close to the text's for a copy of its own.
        ...(strokeToo ? { ring: { op: 'stroke-solid', features: '@f', width: 900, color: '#ffffff00' } } : {}),
        a: { op: 'blend', base: '@dots', over: '@names' },
        b: { op: 'blend', base: '@a', over: '@more' },
        out: strokeToo ? { op: 'blend', base: '@b', over: '@ring' } : { op: 'blend', base: '@b', over: '@b' },
      },
    });
    const plan = buildPlan(doc(false) as never);
    expect(plan.nodes.get('f')!.groupsUnread).toBe(true);
    // `both` is sampled twice (build.ts splitFeatures): over the text's margin, read by text only,
    // and over the dots' (a copy), read by circles.
    const copy = [...plan.nodes.values()].find((n) => n.copyOf === 'both')!;
    expect(plan.nodes.get('both')!.groupsUnread).toBe(true);
    expect(copy.groupsUnread).toBeUndefined();
    expect(buildPlan(doc(true) as never).nodes.get('f')!.groupsUnread).toBeUndefined();
    const loader = new NodeLoader({ baseDir: path.resolve('.') });
    const got = await capture(doc(false), ['f', copy.id], { ...win(1), width: 512, height: 512 }, {}, { loader });
    const f = got.get('f') as Features;
    expect(f.groups).toEqual([]);
    expect(f.whole!.features().map((w) => w.properties.name)).toEqual(['a', 'b', 'c']);
    expect(names((got.get(copy.id) as Features).groups)).toEqual(['a', 'b', 'c']);
    // Tile pieces (MVT): none sampled either; the text node's pixels are those it draws when the groups are sampled.
    const street = (strokeToo: boolean) => ({
      output: 'out',
      sources: { s: { type: 'mvt', tiles: ['npm:@mapbox/mvt-fixtures/real-world/chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 } },
      nodes: {
        lines: { op: 'features', source: 's', layer: 'road_label' },
        names: { op: 'text', features: '@lines', 'text-expr': ['get', 'name'], placement: 'line', size: 10, 'max-extent': 64 },
        // A reader of the groups whose margin is too close to the text's for a copy of its own: an invisible wide stroke.
        ...(strokeToo ? { ink: { op: 'stroke-solid', features: '@lines', width: 600, color: '#ffffff00' } } : {}),
        out: strokeToo ? { op: 'blend', base: '@names', over: '@ink' } : { op: 'blend', base: '@names', over: '@names', opacity: 0 },
      },
    });
    const tile = { z: 14, x0: 4202 * 256, y0: 6089 * 256, width: 256, height: 256, tileSize: 256 };
    const quiet = { loader, onWarning: () => {} };
    const alone = await capture(street(false), ['lines', 'names'], tile, {}, quiet);
    const read = await capture(street(true), ['lines', 'names'], tile, {}, quiet);
    expect((alone.get('lines') as Features).groups).toEqual([]);
    expect((read.get('lines') as Features).groups.length).toBeGreaterThan(10);
    const a = (alone.get('names') as Raster).data;
    const b = (read.get('names') as Raster).data;
    expect(a.some((v) => v > 0)).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });
  test('features nodes sharing a source layer (one filter twice, another filter, different margins) give each the groups it gets alone', async () => {
    // Nodes reading one vector tile layer share its decode and each filter's verdicts per source
    // tile (src/sources/vector.ts selectedFeatures); each must still get what it gets alone.
    const loader = new NodeLoader({ baseDir: path.resolve('.') });
    const source = { type: 'mvt', tiles: ['npm:@mapbox/mvt-fixtures/real-world/chicago/{z}-{x}-{y}.mvt'], minzoom: 13, maxzoom: 13 };
    const major = ['match', ['get', 'class'], ['motorway', 'trunk', 'primary', 'secondary'], true, false];
    const minor = ['match', ['get', 'class'], ['street', 'street_limited', 'service', 'link'], true, false];
    const nodes: Record<string, object> = {
      casing: { op: 'features', source: 's', layer: 'road', 'filter-expr': major },
      inner: { op: 'features', source: 's', layer: 'road', 'filter-expr': major },
      small: { op: 'features', source: 's', layer: 'road', 'filter-expr': minor },
      'casing-ink': { op: 'stroke-solid', features: '@casing', width: 40, color: '#000000' },
      'inner-ink': { op: 'stroke-solid', features: '@inner', width: 6, color: '#ffffff' },
      'small-ink': { op: 'stroke-solid', features: '@small', width: 2, color: '#808080' },
    };
    const styleOf = (ids: string[]) => {
      const used: Record<string, object> = {};
      for (const id of ids) {
        used[id] = nodes[id]!;
        used[`${id}-ink`] = nodes[`${id}-ink`]!;
      }
      const layers = ids.map((id) => `@${id}-ink`);
      let top = layers[0]!;
      layers.slice(1).forEach((l, i) => {
        used[`b${i}`] = { op: 'blend', base: top, over: l };
        top = `@b${i}`;
      });
      used.out = { op: 'blend', base: top, over: top, opacity: 0 };
      return { output: 'out', sources: { s: source }, nodes: used };
    };
    // A z14 tile across the edges of four source tiles (its margins reach all of them).
    const tile = { z: 14, x0: 4201 * 256, y0: 6089 * 256, width: 256, height: 256, tileSize: 256 };
    const ids = ['casing', 'inner', 'small'];
    const together = await capture(styleOf(ids), ids, tile, {}, { loader });
    for (const id of ids) {
      const alone = await capture(styleOf([id]), [id], tile, {}, { loader });
      const a = (alone.get(id) as Features).groups;
      expect(a.length).toBeGreaterThan(3);
      expect((together.get(id) as Features).groups).toEqual(a);
    }
  });
});
