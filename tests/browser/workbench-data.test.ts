// The workbench on real data (issue 15 item 2 and the scalar-field node view): a style opens
// where its data is, with no tile error, and a scalar field shows through a grey ramp.
import path from 'node:path';
import { fixturesTest } from '../helpers/fixtures.js';
import { decodePng, ROOT, saveArtifact, type Session } from './harness.js';
import { openWorkbench, previewState, settled } from './workbench-harness.js';

describe('the heatmap example (declared bounds, a scalar field)', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openWorkbench(path.join(ROOT, 'examples/heatmap/style.json'));
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  test('opens over the source bounds (San Francisco), and the density node shows as a grey field', async () => {
    await s.page.goto(s.base);
    await settled(s.page);
    const st = await previewState(s.page);
    // The mvt source declares bounds -122.46..-122.43, 37.75..37.78.
    expect(st.center!.lng).toBeGreaterThan(-122.47);
    expect(st.center!.lng).toBeLessThan(-122.42);
    expect(st.center!.lat).toBeGreaterThan(37.75);
    expect(st.center!.lat).toBeLessThan(37.78);
    expect(st.zoom).toBeGreaterThan(12);
    const g = st.generation;
    await s.page.locator('#graph g.node[data-node="heat"]').click();
    await settled(s.page, g + 1);
    await expect(s.page.locator('#node-range').isVisible()).resolves.toBe(true);
    const png = await s.page.locator('#map').screenshot();
    saveArtifact('workbench-heat-field.png', png);
    const img = decodePng(png);
    // Every map pixel is grey (the ramp), with a spread of levels (a field, not a flat fill).
    let grey = 0;
    const levels = new Set<number>();
    for (let i = 0; i < img.data.length; i += 4) {
      const [r, gg, b] = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
      if (Math.abs(r - gg) <= 2 && Math.abs(gg - b) <= 2) {
        grey++;
        levels.add(r >> 3);
      }
    }
    expect(grey / (img.data.length / 4)).toBeGreaterThan(0.9);
    expect(levels.size).toBeGreaterThan(8);
    expect(s.consoleErrors).toEqual([]);
  });

  test('the legend draws the heat ramp as a colour scale with its end values, and redraws it when a colour param moves', async () => {
    const bar = s.page.locator('#legend-entries canvas.legend-scale');
    await expect(bar.count()).resolves.toBe(1);
    await expect(s.page.locator('#legend-entries .legend-scale-ends').textContent()).resolves.toBe('01');
    const ends = () =>
      bar.evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, 1).data;
        return { left: Array.from(d.subarray(0, 4)), right: Array.from(d.subarray(d.length - 4)) };
      });
    const before = await ends();
    expect(before.left[3]).toBe(0); // the ramp starts transparent
    expect(before.right[3]).toBeGreaterThan(100);
    const hot = s.page.locator('#params [data-param="hot"] input.hex');
    await hot.fill('#00ff00');
    await hot.press('Enter');
    await s.page.waitForFunction(
      () => {
        const c = document.querySelector<HTMLCanvasElement>('#legend-entries canvas.legend-scale')!;
        const d = c.getContext('2d')!.getImageData(c.width - 1, 0, 1, 1).data;
        return d[1]! > 200 && d[0]! < 60;
      },
      undefined,
      { timeout: 10_000 },
    );
    saveArtifact('workbench-heat-legend.png', await s.page.locator('#legend').screenshot());
  });
});

describe('a PMTiles style on real data (Florence)', () => {
  let s: Session | undefined;
  afterAll(async () => {
    await s?.close();
  });

  fixturesTest(
    'opens over the archive (its header centre), renders with no error, and zoomed far out still without one',
    async () => {
      s = await openWorkbench(path.join(ROOT, 'golden/source-pmtiles-florence/style.json'), { allowOutside: true });
      await s.page.goto(s.base);
      await settled(s.page);
      const st = await previewState(s.page);
      expect(st.center!.lng).toBeCloseTo(11.2415, 2);
      expect(st.center!.lat).toBeCloseTo(43.7798, 2);
      await expect(s.page.locator('#status').evaluate((e) => e.classList.contains('is-error'))).resolves.toBe(false);
      saveArtifact('workbench-florence.png', await s.page.screenshot());
      // Far out (outside the archive's zooms and bounds): tiles render without the source, no error.
      await s.page.evaluate(() => (window as unknown as { tilegraphPreview: { map: { jumpTo(o: object): void } } }).tilegraphPreview.map.jumpTo({ zoom: 3 }));
      await settled(s.page);
      expect((await previewState(s.page)).errors).toEqual([]);
      expect(s.consoleErrors).toEqual([]);
    },
    180_000,
  );
});
