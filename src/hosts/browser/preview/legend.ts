// The legend: each entry's symbol (its node drawn over stand-in features with the current params)
// or its colour scale, redrawn when the params change.
import type { Renderer } from '../index.js';
import { toRGBA8 } from '../../../render/encode.js';
import type { Raster } from '../../../types.js';
import { el } from './panel.js';
import { $ } from './state.js';

const SWATCH = 20;
/** A colour scale's bar, in CSS pixels. */
const SCALE_WIDTH = 180;
const SCALE_HEIGHT = 12;

export function renderLegend(renderer: Renderer): void {
  const legend = renderer.legend;
  const box = $('legend');
  box.hidden = !legend;
  if (!legend) return;
  $('legend-title').textContent = legend.title ?? 'Legend';
  $<HTMLUListElement>('legend-entries').replaceChildren(
    ...(legend.entries ?? []).map((e, i) => {
      const li = el('li');
      // A color-ramp entry is its colour scale: a bar from the ramp's first value to its last.
      const scale = renderer.core.renderLegendScale(i, renderer.params, { width: SCALE_WIDTH, height: SCALE_HEIGHT });
      if (scale) {
        const bar = el('canvas', { class: 'legend-scale', 'data-entry': String(i), role: 'img', 'aria-label': `${e.label}: colour scale` });
        bar.width = SCALE_WIDTH;
        bar.height = SCALE_HEIGHT;
        const ends = el('span', { class: 'legend-scale-ends' });
        ends.append(el('span', {}, scaleNumber(scale.min)), el('span', {}, scaleNumber(scale.max)));
        li.append(el('span', { class: 'legend-label' }, e.label), bar, ends);
      } else {
        const swatch = el('canvas', { class: 'legend-swatch', 'aria-hidden': 'true', 'data-entry': String(i) });
        swatch.width = swatch.height = SWATCH;
        li.append(swatch, el('span', { class: 'legend-label' }, e.label));
      }
      if (e.note) li.append(el('span', { class: 'legend-entry-note' }, e.note));
      return li;
    }),
  );
  const note = $('legend-note');
  note.textContent = legend.note ?? '';
  note.hidden = !legend.note;
  drawSwatches(renderer);
}

/** A scale's end value as a person reads it: 3 significant digits. */
const scaleNumber = (v: number) => String(Number(v.toPrecision(3)));

const putRaster = (canvas: HTMLCanvasElement, raster: Raster) =>
  canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(toRGBA8(raster)), raster.width, raster.height), 0, 0);

/** Each entry's symbol: its node drawn over stand-in features with the current params (CPU, small); a scale's colours. */
export function drawSwatches(renderer: Renderer): void {
  document.querySelectorAll<HTMLCanvasElement>('#legend-entries canvas.legend-scale').forEach((canvas) => {
    const scale = renderer.core.renderLegendScale(Number(canvas.dataset.entry), renderer.params, { width: canvas.width, height: canvas.height });
    if (!scale) return;
    putRaster(canvas, scale.raster);
    const ends = canvas.nextElementSibling?.children;
    if (ends?.length === 2) {
      ends[0]!.textContent = scaleNumber(scale.min);
      ends[1]!.textContent = scaleNumber(scale.max);
    }
  });
  document.querySelectorAll<HTMLCanvasElement>('#legend-entries canvas.legend-swatch').forEach((canvas) => {
    const i = Number(canvas.dataset.entry);
    renderer.core
      .renderLegendSwatch(i, renderer.params, { size: SWATCH })
      .then((raster) => putRaster(canvas, raster))
      .catch(() => {
        canvas.hidden = true; // an entry whose node cannot be drawn over stand-ins (e.g. a DEM) shows its label only
      });
  });
}
