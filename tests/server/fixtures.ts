// Styles and helpers shared by the server and CLI tests: small inline-GeoJSON styles written to a temp dir.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/hosts/cli/main.js');
export const WORKER = path.join(ROOT, 'dist/hosts/node/render-worker.js');

/** The CLI and the worker threads run compiled code: `npm test` builds first. */
export function requireBuild(): void {
  if (!existsSync(CLI) || !existsSync(WORKER)) throw new Error('dist/ is missing: run `npm run build` before these tests');
}

/** A triangle and a square that cross tile edges at zooms 1-3, filled with `$fill`. */
export function shapesStyle(overrides: { fill?: string; data?: unknown } = {}): Record<string, unknown> {
  return {
    name: 'Test shapes',
    attribution: 'test data',
    output: 'out',
    params: {
      fill: { type: 'color', default: overrides.fill ?? '#ff8800', description: 'polygon colour' },
      alpha: { type: 'number', default: 1, min: 0, max: 1 },
      // Read by no node on the output's path: must not split caches or change ETags.
      unused: { type: 'color', default: '#000000' },
    },
    sources: {
      shapes: {
        type: 'geojson',
        attribution: 'shapes by tests',
        data: overrides.data ?? {
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              properties: {},
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [-120, -40],
                    [100, -60],
                    [30, 70],
                    [-120, -40],
                  ],
                ],
              },
            },
            {
              type: 'Feature',
              properties: {},
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [-10, -10],
                    [10, -10],
                    [10, 10],
                    [-10, 10],
                    [-10, -10],
                  ],
                ],
              },
            },
          ],
        },
      },
    },
    nodes: {
      f: { op: 'features', source: 'shapes' },
      paper: { op: 'solid', color: '$unused' },
      out: { op: 'fill-solid', features: '@f', fill: '$fill', 'fill-alpha': '$alpha' },
    },
    legend: { title: 'Shapes', entries: [{ label: 'Shape', from: 'out', geometry: 'polygon' }] },
  };
}

export interface Fixture {
  dir: string;
  shapes: string;
  /** A geojson source whose file does not exist: fails at render time. */
  missingSource: string;
  /** Not JSON at all. */
  brokenJson: string;
  /** Valid JSON, but references a node that does not exist. */
  badRef: string;
}

export function writeFixtures(): Fixture {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-test-'));
  const write = (name: string, doc: unknown) => {
    const p = path.join(dir, name);
    writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 1));
    return p;
  };
  const bad = shapesStyle();
  (bad.nodes as Record<string, Record<string, unknown>>).out!.features = '@nope';
  return {
    dir,
    shapes: write('shapes.json', shapesStyle()),
    missingSource: write('missing.json', shapesStyle({ data: 'no-such-file.geojson' })),
    brokenJson: write('broken.json', '{ "output": "out", '),
    badRef: write('badref.json', bad),
  };
}
