// The label boxes API (Renderer.labels / decide, what the workbench draws): placed labels never
// overlap, every placed label is one of the candidates, neighbouring tiles report the same labels
// where both decide them, and every label pixel a render draws lies in a placed label's box.
// Properties of our own output (no outside witness needed: each side is checked against the other
// and against the placement rule's stated guarantee, docs/format.md "Text placement").
import path from 'node:path';
import { NodeLoader } from '../../hosts/node/loader.js';
import { Renderer, tileWindow, type CandidateLabel, type PlacedLabel, type TextPlacement, type Window } from '../../index.js';
import { fixturesDescribe } from '../../../tests/helpers/fixtures.js';
import { chicagoStyle, placesStyle } from '../../../tests/helpers/text-styles.js';

const loader = () => new NodeLoader({ baseDir: path.resolve('.'), allowOutside: true });

const HALO = 1.5;
const places = placesStyle('#ffffff', { color: '#000000', 'halo-width': HALO, 'halo-color': '#ff0000' });

/** Chicago (mvt-fixtures, z13): street names along road_label lines avoiding POI names. */
const chicago = chicagoStyle('#ffffff', { 'halo-width': HALO }, { 'halo-width': HALO });

const boxesOverlap = (a: Float64Array, b: Float64Array): boolean => {
  for (let i = 0; i < a.length; i += 4)
    for (let j = 0; j < b.length; j += 4) if (a[i]! < b[j + 2]! && b[j]! < a[i + 2]! && a[i + 1]! < b[j + 3]! && b[j + 1]! < a[i + 3]!) return true;
  return false;
};

const key = (l: PlacedLabel) => `${l.text}@${l.x.toFixed(3)},${l.y.toFixed(3)}`;

function expectConsistent(p: TextPlacement): void {
  const cands = p.candidates!;
  expect(cands.length).toBeGreaterThan(0);
  expect(p.placed.length).toBeGreaterThan(0);
  // Every placed label is a candidate marked placed, and the candidates marked placed are exactly the placed labels.
  expect(new Set(p.placed.map(key))).toEqual(new Set(cands.filter((c: CandidateLabel) => c.placed).map(key)));
  for (const l of p.placed) expect(cands).toContain(l);
  // No two placed labels overlap (their boxes include the padding).
  for (let i = 0; i < p.placed.length; i++)
    for (let j = i + 1; j < p.placed.length; j++)
      expect([p.placed[i]!.text, p.placed[j]!.text, boxesOverlap(p.placed[i]!.boxes, p.placed[j]!.boxes)]).toEqual([
        p.placed[i]!.text,
        p.placed[j]!.text,
        false,
      ]);
  // The obstacles flat list is the placed labels' boxes.
  expect(p.boxes.length).toBe(p.placed.reduce((a, l) => a + l.boxes.length, 0));
}

fixturesDescribe('label boxes API on Natural Earth places', () => {
  const r = Renderer.create(places, { loader: loader(), onWarning: () => undefined });

  for (const ratio of [1, 2]) {
    test(`z3 tile 4/2, pixel ratio ${ratio}: placed labels are candidates and never overlap; every label pixel drawn lies in a placed box`, async () => {
      const w: Window = { ...tileWindow({ z: 3, x: 4, y: 2 }, 256 * ratio), pixelRatio: ratio };
      const labels = await r.labels(w);
      expect([...labels.keys()]).toEqual(['labels']);
      const p = labels.get('labels')!;
      expectConsistent(p);
      // The render draws exactly these labels: a pixel that is not background lies within a placed
      // label's box grown by the halo (boxes are the layout's em box plus padding).
      const { raster } = await r.renderWindow(w);
      const grow = HALO * ratio + 1;
      let drawn = 0;
      const outside: string[] = [];
      for (let y = 0; y < w.height; y++)
        for (let x = 0; x < w.width; x++) {
          const i = (y * w.width + x) * 4;
          if (raster.data[i]! > 0.999 && raster.data[i + 1]! > 0.999) continue; // white background
          drawn++;
          const wx = w.x0 + x + 0.5;
          const wy = w.y0 + y + 0.5;
          const inside = p.placed.some((l) => {
            for (let k = 0; k < l.boxes.length; k += 4)
              if (wx > l.boxes[k]! - grow && wx < l.boxes[k + 2]! + grow && wy > l.boxes[k + 1]! - grow && wy < l.boxes[k + 3]! + grow) return true;
            return false;
          });
          if (!inside && outside.length < 5) outside.push(`${x},${y}`);
        }
      expect(drawn).toBeGreaterThan(200);
      expect(outside).toEqual([]);
      // ...and every placed label whose box lies inside the tile has ink there.
      for (const l of p.placed) {
        const [x0, y0, x1, y1] = [l.boxes[0]! - w.x0, l.boxes[1]! - w.y0, l.boxes[2]! - w.x0, l.boxes[3]! - w.y0];
        if (x0 < 0 || y0 < 0 || x1 > w.width || y1 > w.height) continue;
        let n = 0;
        for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
          for (let x = Math.floor(x0); x < Math.ceil(x1); x++) if (raster.data[(y * w.width + x) * 4 + 1]! < 0.5) n++;
        expect([l.text, n > 0]).toEqual([l.text, true]);
      }
    });
  }

  test('neighbouring tiles report the same labels where both decide them (world pixels, whatever the window)', async () => {
    // z4 8/5 and 9/5: Europe, crowded with places.
    const a = (await r.labels(tileWindow({ z: 4, x: 8, y: 5 }))).get('labels')!;
    const b = (await r.labels(tileWindow({ z: 4, x: 9, y: 5 }))).get('labels')!;
    const win = (await r.labels({ z: 4, x0: 8 * 256, y0: 5 * 256, width: 512, height: 256, tileSize: 256 })).get('labels')!;
    // Labels anchored within 60 px of the shared edge are decided by both tiles (each decides to max-extent, 72 px, beyond itself).
    const band = (l: PlacedLabel) => Math.abs(l.x - 9 * 256) < 60 && l.y >= 5 * 256 && l.y < 6 * 256;
    const sa = a.candidates!.filter(band).map((l) => `${key(l)} ${l.placed}`);
    const sb = b.candidates!.filter(band).map((l) => `${key(l)} ${l.placed}`);
    const sw = win.candidates!.filter(band).map((l) => `${key(l)} ${l.placed}`);
    expect(sa.length).toBeGreaterThan(2);
    expect(sa.some((l) => l.endsWith('false'))).toBe(true); // some candidates there are dropped
    expect(new Set(sa)).toEqual(new Set(sb));
    expect(new Set(sa)).toEqual(new Set(sw));
  });

  test('a render without decide publishes no candidates; asking for a node that is not there is an error', async () => {
    await expect(r.decide(tileWindow({ z: 2, x: 1, y: 1 }), undefined, { ids: ['nope'] })).rejects.toThrow(/no node 'nope'/);
    // Nodes that publish nothing (features) are absent, not undefined.
    const m = await r.decide(tileWindow({ z: 2, x: 1, y: 1 }), undefined, { ids: ['pts', 'labels'] });
    expect([...m.keys()]).toEqual(['labels']);
  });
});

describe('label boxes API on line labels (Chicago z13, street names avoiding POI names)', () => {
  test('both text nodes report their labels; no street name overlaps a placed POI name', async () => {
    const r = Renderer.create(chicago, { loader: loader(), onWarning: () => undefined });
    const m = await r.labels(tileWindow({ z: 13, x: 2101, y: 3044 }));
    expect([...m.keys()].sort()).toEqual(['names', 'pois']);
    const names = m.get('names')!;
    const pois = m.get('pois')!;
    expectConsistent(names);
    expectConsistent(pois);
    // Line labels: one box per glyph cluster.
    expect(names.placed.some((l) => l.boxes.length > 4)).toBe(true);
    for (const n of names.placed) for (const q of pois.placed) expect([n.text, q.text, boxesOverlap(n.boxes, q.boxes)]).toEqual([n.text, q.text, false]);
  });
});
