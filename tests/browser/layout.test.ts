// The workbench's layout on every bundled style at two common screen sizes (issue 23): the map
// stays in its column (a wide graph strip used to stretch it to 1209-1665 px over the panel), the
// graph strip scrolls inside its own box, the page never scrolls sideways, and the panel's first
// control and the right-most graph node are visible and receive a click. Witness: Chromium's own
// layout and hit testing (playwright's actionability check), and a screenshot per case.
import path from 'node:path';
import { jest } from '@jest/globals';
import { pageReady, ROOT, saveArtifact, type Session } from './harness.js';
import { openWorkbench } from './workbench-harness.js';

const STYLES = ['handdrawn', 'heatmap', 'stipple', 'terrain', 'toner', 'watercolor', 'world'];
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

let s: Session;

// A CI run once timed out on the first style's page start (CI of 2026-11-27, 120 s, not seen here in
// dozens of runs, under load either): pageReady now fails with where the start stopped, and a failed
// case runs once more with that message printed first, so a hang shows in the log without one slow
// machine turning the run red. A layout failure fails both tries.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

beforeAll(async () => {
  s = await openWorkbench(path.join(ROOT, 'examples'), {}, VIEWPORTS[0]);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

interface Geometry {
  innerWidth: number;
  scrollWidth: number;
  map: { left: number; right: number };
  stage: { left: number; right: number };
  panel: { left: number; right: number };
  strip: { right: number; scrollWidth: number; clientWidth: number };
}

/** The page's geometry at the current viewport, and the checks every size must pass. */
async function checkLayout(id: string, viewport: { width: number; height: number }): Promise<void> {
  const g = await s.page.evaluate((): Geometry => {
    const box = (sel: string) => {
      const r = document.querySelector(sel)!.getBoundingClientRect();
      return { left: r.left, right: r.right };
    };
    const strip = document.getElementById('graph')!;
    return {
      innerWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      map: box('#map'),
      stage: box('.stage'),
      panel: box('.panel'),
      strip: { right: strip.getBoundingClientRect().right, scrollWidth: strip.scrollWidth, clientWidth: strip.clientWidth },
    };
  });
  saveArtifact(`layout-${id}-${viewport.width}.png`, await s.page.screenshot());
  expect({ id, width: viewport.width, pageScrollsSideways: g.scrollWidth > g.innerWidth }).toEqual({ id, width: viewport.width, pageScrollsSideways: false });
  // The map and the graph strip end where the panel begins.
  expect(g.map.right).toBeLessThanOrEqual(g.panel.left + 0.5);
  expect(g.strip.right).toBeLessThanOrEqual(g.panel.left + 0.5);
  expect(g.panel.right).toBeLessThanOrEqual(g.innerWidth + 0.5);
  expect(g.map.right - g.map.left).toBeGreaterThan(viewport.width - 400);
  // The panel's first control is in view and nothing covers it (Chromium's hit test).
  const first = s.page.locator('#params input').first();
  const fb = (await first.boundingBox())!;
  expect(fb.x).toBeGreaterThanOrEqual(g.panel.left);
  expect(fb.x + fb.width).toBeLessThanOrEqual(g.innerWidth);
  await first.click({ trial: true, timeout: 5000 });
  // The right-most graph node: reachable by scrolling the strip, and clickable there.
  const nodes = s.page.locator('#graph g.node[role=button]');
  const xs = await nodes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
  const last = nodes.nth(xs.indexOf(Math.max(...xs)));
  await last.click({ trial: true, timeout: 5000 });
  const lb = (await last.boundingBox())!;
  expect(lb.x + lb.width).toBeLessThanOrEqual(g.panel.left + 0.5);
}

// One page load per style, measured at each size in turn (a resize reflows the same page).
for (const id of STYLES) {
  test(`${id}: at ${VIEWPORTS.map((v) => `${v.width}x${v.height}`).join(' and ')} the map stays in its column, nothing scrolls sideways, the panel's first control and the right-most graph node take a click`, async () => {
    await s.page.setViewportSize(VIEWPORTS[0]!);
    await s.page.goto(`${s.base}styles/${id}/`);
    await pageReady(s.page, s.consoleErrors);
    await s.page.locator('#graph g.node').first().waitFor();
    for (const viewport of VIEWPORTS) {
      await s.page.setViewportSize(viewport);
      await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await checkLayout(id, viewport);
    }
  }, 120_000);
}
