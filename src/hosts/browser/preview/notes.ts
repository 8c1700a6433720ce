// The workbench's "Converted from MapLibre" section: what the graph of a MapLibre GL style does not
// honour (layer, property, why), as the server's GET /style/notes reports it, else as the
// renderer in this page converted it.
import { formatNote, type MapLibreNote } from '../../../index.js';
import { el } from './panel.js';

export async function showConversionNotes(root: URL, own: MapLibreNote[] | undefined): Promise<void> {
  let notes = own;
  try {
    const res = await fetch(new URL('style/notes', root));
    if (res.ok) notes = ((await res.json()) as { maplibre: MapLibreNote[] | null }).maplibre ?? undefined;
  } catch {
    // No server route (a page of its own): the renderer's notes stand.
  }
  const box = document.getElementById('maplibre');
  if (!box || !notes) return;
  box.hidden = false;
  document.getElementById('maplibre-summary')!.textContent = notes.length
    ? `The graph was converted from a MapLibre GL style. ${notes.length} thing${notes.length === 1 ? ' is' : 's are'} not drawn as MapLibre draws ${notes.length === 1 ? 'it' : 'them'}:`
    : 'The graph was converted from a MapLibre GL style; every layer and property is honoured.';
  document.getElementById('maplibre-notes')!.replaceChildren(...notes.map((n) => el('li', {}, formatNote(n))));
}
