// Mapbox Vector Tile bytes to decoded layers with flat geometry (no object per vertex).
import { VectorTile, VectorTileLayer } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import type { DecodedLayer, TileFeature } from './sample.js';
import { emptyBox, growBox } from '../geometry/measure.js';

/**
 * A tile's layer index: where each layer's bytes lie and its name, nothing more. A layer's keys,
 * values and features are read (and their framing checked) only when the layer is asked for, so a
 * style that draws 5 of a tile's 14 layers never reads the other 9.
 */
export class LazyTile {
  private readonly pbf: Pbf;
  private readonly ranges = new Map<string, { start: number; end: number }>();

  constructor(bytes: Uint8Array) {
    this.pbf = new Pbf(bytes);
    const c = new Cursor(bytes);
    const end = bytes.length;
    // The tile's own fields are framing-checked here: a cut tile fails whichever layer is asked
    // for (the cut lies inside some layer's length); inside a layer, when it is read.
    while (c.pos < end) {
      const tag = c.varint(end);
      if (tag === 26) {
        const len = c.varint(end);
        const start = c.pos;
        if (start + len > end) throw new Error(`a field of a tile message runs ${start + len - end} bytes past its end (truncated data)`);
        this.indexLayer(c, start, start + len);
        c.pos = start + len;
      } else skipField(c, end, tag, 'tile');
    }
  }

  /**
   * A layer's name and whether it holds features, read from its first fields only (the name comes
   * first in every writer; the rest is read when the layer is). As in VectorTile, a layer without
   * features is left out and replaces nothing; a layer with several names (not valid MVT) goes by
   * its first here, by its last in VectorTile.
   */
  private indexLayer(c: Cursor, start: number, end: number): void {
    let namePos = -1;
    let features = false;
    c.pos = start;
    while (c.pos < end && (namePos < 0 || !features)) {
      const tag = c.varint(end);
      if (tag === 10 && namePos < 0) namePos = c.pos;
      else if (tag === 18) features = true;
      skipField(c, end, tag, 'layer');
    }
    if (!features) return;
    let name = '';
    if (namePos >= 0) {
      this.pbf.pos = namePos;
      name = this.pbf.readString();
    }
    this.ranges.set(name, { start, end });
  }

  /** Layer names, in the order of their first appearance. */
  names(): string[] {
    return [...this.ranges.keys()];
  }

  /** One layer, its framing checked (throws on truncated or corrupt data); undefined when absent. */
  layer(name: string): VectorTileLayer | undefined {
    const r = this.ranges.get(name);
    if (!r) return undefined;
    const c = new Cursor(this.pbf.buf);
    c.pos = r.start;
    walk(c, r.end, 'layer', 1);
    this.pbf.pos = r.start;
    return new VectorTileLayer(this.pbf, r.end);
  }
}

/** Index the tile's layers (cheap: a layer is read and decoded only when asked for; see LazyTile). */
export function parseTile(bytes: Uint8Array): LazyTile {
  return new LazyTile(bytes);
}

/** The whole tile parsed by @mapbox/vector-tile (every layer's keys and values), its framing checked. */
export function parseWholeTile(bytes: Uint8Array): VectorTile {
  checkTileStructure(bytes);
  return new VectorTile(new Pbf(bytes));
}

// Sub-messages of the MVT schema, by field number: Tile.layers (3) -> Layer; Layer.features (2) ->
// Feature and Layer.values (4) -> Value. Everything else is a scalar, a string or a packed array.
const MESSAGES: Record<string, Record<number, string>> = { tile: { 3: 'layer' }, layer: { 2: 'feature', 4: 'value' }, feature: {}, value: {} };

/**
 * Walk the protobuf framing of a whole tile: every field's wire type is valid and every length
 * ends inside its message. pbf reads past the end of a truncated buffer without complaint (a tile
 * cut at 15 of 73 KB decodes 6 of its 13 layers), so a cut tile is caught here instead.
 */
export function checkTileStructure(bytes: Uint8Array): void {
  walk(new Cursor(bytes), bytes.length, 'tile', 0);
}

/** A read position in the tile's bytes (one per check: varints return a value, not a pair). */
class Cursor {
  pos = 0;
  constructor(readonly b: Uint8Array) {}

  varint(end: number): number {
    const b = this.b;
    let pos = this.pos;
    if (pos < end && b[pos]! < 0x80) {
      this.pos = pos + 1;
      return b[pos]!;
    }
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) throw new Error('a varint runs past the end of its message (truncated data)');
      const byte = b[pos++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) {
        this.pos = pos;
        return v;
      }
      mul *= 128;
    }
    throw new Error('a varint is longer than 10 bytes (corrupt protobuf)');
  }
}

function walk(c: Cursor, end: number, type: string, depth: number): void {
  const subs = MESSAGES[type]!;
  while (c.pos < end) {
    const tag = c.varint(end);
    const sub = subs[Math.floor(tag / 8)];
    if (sub && depth < 3 && (tag & 7) === 2) {
      const len = c.varint(end);
      const start = c.pos;
      if (start + len > end) throw new Error(`a field of a ${type} message runs ${start + len - end} bytes past its end (truncated data)`);
      walk(c, start + len, sub, depth + 1);
      c.pos = start + len;
    } else skipField(c, end, tag, type);
  }
}

/** Skip one field's payload (after its tag), checking it ends inside its message. */
function skipField(c: Cursor, end: number, tag: number, type: string): void {
  const wire = tag & 7;
  if (tag < 8) throw new Error(`${type} message holds field number 0 (corrupt protobuf)`);
  if (wire === 0) c.varint(end);
  else if (wire === 1) c.pos += 8;
  else if (wire === 5) c.pos += 4;
  else if (wire === 2) {
    const len = c.varint(end);
    if (c.pos + len > end) throw new Error(`a field of a ${type} message runs ${c.pos + len - end} bytes past its end (truncated data)`);
    c.pos += len;
  } else throw new Error(`wire type ${wire} in a ${type} message (corrupt protobuf)`);
  if (c.pos > end) throw new Error(`a ${type} message runs past its end (truncated data)`);
}

/** Internals of VectorTileLayer read here to decode features straight into typed arrays (no VectorTileFeature objects). */
interface LayerInternals {
  _pbf: Pbf;
  _features: number[];
  _keys: string[];
  _values: unknown[];
}

/**
 * Feature properties: objects with nothing on their prototype chain (as VectorTileFeature's
 * Object.create(null): `['has', 'toString']` stays false), made by a constructor so that V8 keeps
 * them in fast mode (a null-prototype literal starts as a dictionary).
 */
function Props(): void {}
Props.prototype = Object.create(null);

// Scratch buffers of the geometry reader, grown as needed and reused by every layer.
let scratchCoords = new Int32Array(1 << 16);
let scratchParts = new Uint32Array(1 << 12);
/** Entries of a scratch array kept between layers (4 MiB); a larger one is dropped after use. */
const SCRATCH_KEEP = 1 << 20;

/**
 * Decode every feature of one layer; throws on truncated or corrupt geometry. Features are read
 * as VectorTileFeature reads them (id, tags into a properties object with nothing inherited,
 * type, geometry offset), without building that object. The coordinates, part indices and
 * exterior flags of all features are views of three arrays per layer (one allocation each
 * instead of three per feature).
 */
export function decodeLayer(layer: VectorTileLayer): DecodedLayer {
  const { _pbf: pbf, _features: offsets, _keys: keys, _values: values } = layer as unknown as LayerInternals;
  const features: TileFeature[] = [];
  // Per kept feature: where its coords and parts lie in the scratch arrays.
  const at: number[] = [];
  const cursor = { coords: 0, parts: 0 };
  for (let i = 0; i < offsets.length; i++) {
    pbf.pos = offsets[i]!;
    const end = pbf.readVarint() + pbf.pos;
    const properties: Record<string, unknown> = new (Props as unknown as new () => Record<string, unknown>)();
    let type = 0;
    let id: number | undefined;
    let geometry = -1;
    while (pbf.pos < end) {
      const tag = pbf.readVarint();
      if (tag === 8) id = pbf.readVarint();
      else if (tag === 18) {
        const tagsEnd = pbf.readVarint() + pbf.pos;
        while (pbf.pos < tagsEnd) {
          const key = keys[pbf.readVarint()]!;
          properties[key] = values[pbf.readVarint()];
        }
      } else if (tag === 24) type = pbf.readVarint();
      else if (tag === 34) {
        geometry = pbf.pos;
        pbf.skip(tag);
      } else pbf.skip(tag);
    }
    if (type === 0) continue; // UNKNOWN geometry: nothing a renderer can draw
    const c0 = cursor.coords,
      p0 = cursor.parts;
    if (!readGeometry(pbf, geometry, cursor)) continue;
    if (type === 1) {
      // Points: one part holding every point.
      cursor.parts = p0;
      scratchParts[cursor.parts++] = 0;
      scratchParts[cursor.parts++] = (cursor.coords - c0) / 2;
    }
    const bbox = growBox(emptyBox(), scratchCoords, c0, cursor.coords);
    const feature: TileFeature = { properties, type: type as 1 | 2 | 3, coords: EMPTY_I32, parts: EMPTY_U32, bbox };
    if (id !== undefined) feature.id = id;
    features.push(feature);
    at.push(c0, cursor.coords, p0, cursor.parts);
  }
  const coords = scratchCoords.slice(0, cursor.coords);
  const parts = scratchParts.slice(0, cursor.parts);
  // A huge layer's scratch is not kept for the life of the process.
  if (scratchCoords.length > SCRATCH_KEEP) scratchCoords = new Int32Array(1 << 16);
  if (scratchParts.length > SCRATCH_KEEP) scratchParts = new Uint32Array(1 << 12);
  let exterior: Uint8Array | undefined;
  for (let i = 0; i < features.length; i++) {
    const f = features[i]!;
    const p0 = at[i * 4 + 2]!,
      p1 = at[i * 4 + 3]!;
    f.coords = coords.subarray(at[i * 4]!, at[i * 4 + 1]!);
    f.parts = parts.subarray(p0, p1);
    if (f.type === 3) {
      exterior ??= new Uint8Array(parts.length);
      f.exterior = exterior.subarray(p0, p1 - 1);
      exteriorFlagsInto(f.coords, f.parts, f.exterior);
    }
  }
  return { extent: layer.extent, features };
}

const EMPTY_I32 = new Int32Array(0);
const EMPTY_U32 = new Uint32Array(0);

/**
 * MVT geometry commands (MoveTo 1, LineTo 2, ClosePath 7) appended to the scratch coords and part
 * starts (+ end; relative to the feature's first vertex) at `cursor`, which is advanced; false
 * (cursor unchanged) when there is no vertex.
 */
function readGeometry(pbf: Pbf, start: number, cursor: { coords: number; parts: number }): boolean {
  if (start < 0) return false;
  pbf.pos = start;
  const end = pbf.readVarint() + pbf.pos;
  if (end > pbf.length) throw new Error(`feature geometry runs past the end of the tile (truncated data)`);
  // At most one vertex per two bytes of commands: room for every vertex and part (and 2 point parts).
  const room = end - pbf.pos + 4;
  const c0 = cursor.coords,
    p0 = cursor.parts;
  if (scratchCoords.length < c0 + room) {
    const grown = new Int32Array(Math.max(2 * scratchCoords.length, c0 + room));
    grown.set(scratchCoords.subarray(0, c0));
    scratchCoords = grown;
  }
  if (scratchParts.length < p0 + room) {
    const grown = new Uint32Array(Math.max(2 * scratchParts.length, p0 + room));
    grown.set(scratchParts.subarray(0, p0));
    scratchParts = grown;
  }
  const coords = scratchCoords;
  const parts = scratchParts;
  let nc = c0;
  let np = p0;
  let cmd = 1;
  let length = 0;
  let x = 0;
  let y = 0;
  while (pbf.pos < end) {
    if (length <= 0) {
      const cmdLen = pbf.readVarint();
      cmd = cmdLen & 0x7;
      length = cmdLen >> 3;
      if (length === 0) continue;
    }
    length--;
    if (cmd === 1 || cmd === 2) {
      x += pbf.readSVarint();
      y += pbf.readSVarint();
      if (cmd === 1) parts[np++] = (nc - c0) / 2;
      else if (np === p0) throw new Error('LineTo before any MoveTo');
      coords[nc++] = x;
      coords[nc++] = y;
    } else if (cmd !== 7) {
      throw new Error(`unknown geometry command ${cmd}`);
    }
    // ClosePath adds no vertex: rings are implicitly closed here.
  }
  if (pbf.pos !== end) throw new Error('feature geometry is corrupt (commands overrun their length)');
  if (nc === c0) return false;
  parts[np++] = (nc - c0) / 2;
  cursor.coords = nc;
  cursor.parts = np;
  return true;
}

/**
 * Which rings are exteriors: those winding like the first ring (spec v2 says clockwise on screen;
 * v1 tiles may wind either way, so the first ring decides, as in vector-tile-js).
 */
export function exteriorFlags(c: Int32Array, parts: Uint32Array): Uint8Array {
  const flags = new Uint8Array(parts.length - 1);
  exteriorFlagsInto(c, parts, flags);
  return flags;
}

/** exteriorFlags written into `flags` (one entry per ring, zeroed). */
function exteriorFlagsInto(c: Int32Array, parts: Uint32Array, flags: Uint8Array): void {
  const n = parts.length - 1;
  let sign = 0;
  for (let p = 0; p < n; p++) {
    let a = 0;
    const s = parts[p]!,
      e = parts[p + 1]!;
    for (let i = s, j = e - 1; i < e; j = i++) a += c[j * 2]! * c[i * 2 + 1]! - c[i * 2]! * c[j * 2 + 1]!;
    if (a === 0) continue; // degenerate: dropped when sampled
    const sg = Math.sign(a);
    if (sign === 0) sign = sg;
    flags[p] = sg === sign ? 1 : 0;
  }
}
