// The style document's shape (spec §2), as validated by the format's JSON Schema.
import type { Kind } from '../types.js';
import type { NodeSpec } from '../ops/types.js';

export interface ParamDecl {
  type: 'color' | 'number' | 'bool';
  default: string | number | boolean;
  min?: number;
  max?: number;
  description?: string;
  /** A human label for a params panel (default: the name). */
  label?: string;
  /** A heading under which a params panel groups this param. */
  group?: string;
}

export interface FunctionDecl {
  description?: string;
  inputs?: Record<string, { kind: Kind; default?: unknown; description?: string }>;
  nodes: Record<string, NodeSpec>;
  output: string;
  'output-kind': Kind;
}

export interface LegendEntry {
  label: string;
  from: string;
  geometry?: 'all' | 'polygon' | 'line' | 'point';
  'min-zoom'?: number;
  'max-zoom'?: number;
  note?: string;
  properties?: Record<string, unknown>;
}

export interface SourceDecl {
  type: 'mvt' | 'pmtiles' | 'geojson' | 'dem';
  attribution?: string;
  minzoom?: number;
  maxzoom?: number;
  [field: string]: unknown;
}

export interface StyleDoc {
  $schema?: string;
  name?: string;
  /** What the style shows and where (plain text): the gallery's card, TileJSON, MBTiles metadata. */
  description?: string;
  version?: string;
  attribution?: string;
  output: string;
  /** Tile size at which expressions see the tile zoom (MapLibre styles: 512); see expressionZoom. */
  'zoom-basis'?: number;
  params?: Record<string, ParamDecl>;
  nodes: Record<string, NodeSpec>;
  functions?: Record<string, FunctionDecl>;
  legend?: { title?: string; note?: string; entries?: LegendEntry[] };
  sources?: Record<string, SourceDecl>;
}
