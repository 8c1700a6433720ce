import { openSession, saveArtifact } from './harness.js';
test('scratch', async () => {
  const s = await openSession();
  try {
    s.page.on('console', (m) => console.log('console', m.type(), m.text()));
    await s.page.setViewportSize({ width: 1000, height: 900 });
    await s.page.goto(s.base + '?land=%23ff000080');
    await s.page.evaluate(() => (window as any).tilegraphPreview.ready);
    await s.page.waitForFunction(() => { const t = (window as any).tilegraphPreview; return t.map && t.idleGeneration === t.generation && t.map.areTilesLoaded(); }, undefined, { timeout: 60000 });
    saveArtifact('scratch-tall.png', await s.page.screenshot());
    console.log(await s.page.evaluate(() => { const t = (window as any).tilegraphPreview; return { errors: t.errors, status: document.getElementById('status')!.textContent, z: t.map.getZoom(), tiles: Object.keys(t.map.style.sourceCaches?.tilegraph?._tiles ?? t.map.style.tileManagers?.tilegraph?._tiles ?? {}).length }; }));
  } finally { await s.close(); }
});
