// `tilegraph convert`: a MapLibre GL style written out as the graph it converts to, an ordinary
// tilegraph style to edit; what the graph does not honour goes to stderr.
import { readFile } from 'node:fs/promises';
import { convertMapLibre, formatNote, isMapLibreStyle, loadAnyStyle, StyleError } from '../../index.js';
import { StyleFileError } from './exit.js';
import { writeOutput } from './render.js';

export async function convertCommand(a: { style: string; out: string }): Promise<string> {
  let text: string;
  try {
    text = await readFile(a.style, 'utf8');
  } catch (e) {
    throw new StyleFileError(`cannot read style '${a.style}': ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new StyleError(`the style is not valid JSON: ${(e as Error).message}`);
  }
  if (!isMapLibreStyle(doc)) throw new StyleError(`'${a.style}' is not a MapLibre GL style (an object with "version": 8 and "layers")`);
  // Validated as every host loads it (the style-spec's validation, then our schema and build).
  loadAnyStyle(doc);
  const { style, notes } = convertMapLibre(doc);
  await writeOutput(a.out, new TextEncoder().encode(JSON.stringify(style, null, 2) + '\n'));
  for (const n of notes) process.stderr.write(`tilegraph: not honoured: ${formatNote(n)}\n`);
  return `${a.out}: ${Object.keys(style.nodes).length} nodes from ${doc.layers.length} layers${notes.length ? `; ${notes.length} thing${notes.length === 1 ? '' : 's'} not honoured (listed above)` : ''}`;
}
