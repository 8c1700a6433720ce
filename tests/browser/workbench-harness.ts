// The workbench tests' session: like harness.ts's openSession, with the server's options
// (watch, allowOutside) and a downloads-enabled context.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { serve, type ServeOptions } from '../../src/hosts/server/index.js';
import { BASE_CHROMIUM_ARGS, buildBundle, pageReady, type Session } from './harness.js';

export async function openWorkbench(style: string, options: Partial<ServeOptions> = {}, viewport = { width: 1200, height: 760 }): Promise<Session> {
  buildBundle();
  const server = await serve({ style, port: 0, host: '127.0.0.1', workers: 0, backend: 'cpu', log: () => undefined, ...options });
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: BASE_CHROMIUM_ARGS,
      viewport,
      acceptDownloads: true,
    });
  } catch (e) {
    await server.close(0);
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
  const page: Page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  return {
    server,
    base: server.url,
    context,
    page,
    consoleErrors,
    async close() {
      await context.close().catch(() => undefined);
      await server.close(0);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

interface PreviewGlobal {
  tilegraphPreview: {
    ready: Promise<void>;
    map?: { areTilesLoaded(): boolean; getZoom(): number; getCenter(): { lng: number; lat: number } };
    generation: number;
    idleGeneration: number;
    errors: string[];
    node?: string;
    inspected?: { node: string; geometry: string; properties: Record<string, unknown> }[];
    lastExport?: { name: string; bytes: number; window?: { z: number; x0: number; y0: number; width: number; height: number } };
    live: boolean;
  };
}
export type PreviewState = PreviewGlobal['tilegraphPreview'];

/** Wait until the map re-requested its tiles at least `generation` times and loaded them all. */
export async function settled(page: Page, generation = 0, allowErrors = false): Promise<void> {
  await pageReady(page);
  await page.waitForFunction(
    (g) => {
      const t = (window as unknown as PreviewGlobal).tilegraphPreview;
      return !!t.map && t.generation >= g && t.idleGeneration === t.generation && t.map.areTilesLoaded();
    },
    generation,
    { timeout: 90_000 },
  );
  if (!allowErrors) expect(await page.evaluate(() => (window as unknown as PreviewGlobal).tilegraphPreview.errors)).toEqual([]);
}

export const previewState = (page: Page): Promise<Omit<PreviewState, 'map' | 'ready'> & { zoom?: number; center?: { lng: number; lat: number } }> =>
  page.evaluate(() => {
    const { map, ready: _r, ...rest } = (window as unknown as PreviewGlobal).tilegraphPreview;
    return JSON.parse(JSON.stringify({ ...rest, zoom: map?.getZoom(), center: map?.getCenter() }));
  });

/** Share of pixels within `tol` of an sRGB colour. */
export function share(img: { data: Uint8Array }, hex: string, tol = 6): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) if (c.every((v, k) => Math.abs(img.data[i + k]! - v) <= tol)) n++;
  return n / (img.data.length / 4);
}
