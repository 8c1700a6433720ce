// The parts of a MapLibre GL v8 style the converter reads (the style-spec's own types are wider).

export interface MlLayer {
  id: string;
  type: string;
  source?: string;
  'source-layer'?: string;
  minzoom?: number;
  maxzoom?: number;
  filter?: unknown;
  layout?: Record<string, unknown>;
  paint?: Record<string, unknown>;
  metadata?: unknown;
}

export interface MlSource {
  type: string;
  url?: string;
  tiles?: string[];
  data?: unknown;
  [field: string]: unknown;
}

export interface MlStyle {
  version: 8;
  name?: string;
  sources: Record<string, MlSource>;
  layers: MlLayer[];
  sprite?: string | { id: string; url: string }[];
  glyphs?: string;
  metadata?: Record<string, unknown>;
  center?: [number, number];
  zoom?: number;
  [key: string]: unknown;
}

/** Something of the MapLibre style that the converted graph does not honour, and why. */
export interface Note {
  /** The layer id, or undefined for the style or a source. */
  layer?: string;
  /** The property (`line-gradient`), `source:<name>`, or the style key. */
  property?: string;
  message: string;
}

/** Whether a parsed document is a MapLibre GL style (version 8 with a layers array) rather than ours. */
export function isMapLibreStyle(doc: unknown): doc is MlStyle {
  return !!doc && typeof doc === 'object' && (doc as { version?: unknown }).version === 8 && Array.isArray((doc as { layers?: unknown }).layers);
}

/** One line per note: `layer 'roads' line-gradient: not supported (...)`. */
export function formatNote(n: Note): string {
  const where = [n.layer !== undefined ? `layer '${n.layer}'` : '', n.property ?? ''].filter(Boolean).join(' ');
  return where ? `${where}: ${n.message}` : n.message;
}
