// MBTiles 1.3 (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md): an SQLite database
// with a `metadata` (name, value) table and a `tiles` table whose `tile_row` is a TMS row (y flipped:
// "11/327/791 is inserted as tile_row 1256, since 1256 is 2^11 - 1 - 791"). SQLite is sql.js
// (SQLite compiled to WebAssembly: no native binary to fetch at install), which holds the database
// in memory until it is written: the tile bytes of one archive are bounded (LIMITS below), and a
// larger pyramid belongs in a PMTiles archive or a directory, which stream to disk.
// An interrupted export writes what it has to `<file>.partial`, which `--resume` continues.
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { formatBytes } from '../../limits.js';
import { jobDifferences, ResumeMismatchError, type JobIdentity } from './pmtiles/index.js';

/** Tile bytes one MBTiles archive may hold (the database lives in memory until it is written). */
export const MAX_MBTILES_BYTES = 256 * 1024 * 1024;

/** SQLite's application_id for MBTiles ("MPBX", the officially assigned magic number). */
export const MBTILES_APPLICATION_ID = 0x4d504258;

/** The metadata key holding tilegraph's job identity (what --resume must match). */
const JOB_KEY = 'tilegraph_job';

let sqlite: Promise<SqlJsStatic> | undefined;
const loadSqlite = () => (sqlite ??= initSqlJs());

export interface MbtilesInfo {
  name: string;
  /** MBTiles `format`: png, jpg or webp. */
  format: 'png' | 'jpg' | 'webp';
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** [lon, lat, zoom]. */
  center: [number, number, number];
  minzoom: number;
  maxzoom: number;
  attribution?: string;
  description?: string;
  /** Further rows (strings, or values written as JSON). */
  extra?: Record<string, unknown>;
}

/** The TMS row of XYZ row y at zoom z (MBTiles 1.3, "Tiles": 2^z - 1 - y). */
export const tmsRow = (z: number, y: number): number => 2 ** z - 1 - y;

export class MbtilesWriter {
  private bytes = 0;
  private readonly have = new Set<string>();

  private constructor(
    readonly file: string,
    private readonly db: Database,
    private readonly maxBytes: number,
  ) {
    for (const [z, x, row, n] of db.exec('SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles')[0]?.values ?? []) {
      this.have.add(`${z}/${x}/${tmsRow(Number(z), Number(row))}`);
      this.bytes += Number(n);
    }
  }

  /** A new archive, or with `resume` the tiles of an interrupted run of the same job (`<file>.partial`). */
  static async open(file: string, o: { resume?: boolean; job: JobIdentity; maxBytes?: number }): Promise<MbtilesWriter> {
    const maxBytes = o.maxBytes ?? MAX_MBTILES_BYTES;
    const SQL = await loadSqlite();
    const partial = `${file}.partial`;
    if (o.resume && existsSync(partial)) {
      const db = new SQL.Database(await readFile(partial));
      const row = db.exec('SELECT value FROM metadata WHERE name = ?', [JOB_KEY])[0]?.values[0]?.[0];
      const before = typeof row === 'string' ? (JSON.parse(row) as JobIdentity) : undefined;
      const diff = before ? jobDifferences(before, o.job) : ['no job identity'];
      if (diff.length) {
        db.close();
        throw new ResumeMismatchError(
          `cannot resume '${file}': '${partial}' is of a different job (${diff.join('; ')}); run without --resume, or with the same options`,
        );
      }
      return new MbtilesWriter(file, db, maxBytes);
    }
    const db = new SQL.Database();
    db.run(`PRAGMA application_id = ${MBTILES_APPLICATION_ID}`);
    db.run('CREATE TABLE metadata (name text, value text)');
    db.run('CREATE UNIQUE INDEX name ON metadata (name)');
    db.run('CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)');
    db.run('CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)');
    db.run('INSERT INTO metadata VALUES (?, ?)', [JOB_KEY, JSON.stringify(o.job)]);
    return new MbtilesWriter(file, db, maxBytes);
  }

  has(z: number, x: number, y: number): boolean {
    return this.have.has(`${z}/${x}/${y}`);
  }

  /** Store tile z/x/y (XYZ, y = 0 north) at its TMS row. */
  async write(z: number, x: number, y: number, tile: Uint8Array): Promise<void> {
    if (this.bytes + tile.length > this.maxBytes)
      throw new Error(
        `the MBTiles archive would hold more than ${formatBytes(this.maxBytes)} of tiles (it is built in memory); write a .pmtiles archive or a directory for a pyramid this large`,
      );
    this.db.run('INSERT OR REPLACE INTO tiles VALUES (?, ?, ?, ?)', [z, x, tmsRow(z, y), tile]);
    this.bytes += tile.length;
    this.have.add(`${z}/${x}/${y}`);
  }

  /** Write the metadata and the archive (atomically: a temp file renamed), and drop any `.partial`. */
  async finish(info: MbtilesInfo): Promise<void> {
    const rows: [string, string][] = [
      ['name', info.name],
      ['format', info.format],
      ['bounds', info.bounds.join(',')],
      ['center', info.center.join(',')],
      ['minzoom', String(info.minzoom)],
      ['maxzoom', String(info.maxzoom)],
      ['type', 'baselayer'],
    ];
    if (info.attribution) rows.push(['attribution', info.attribution]);
    if (info.description) rows.push(['description', info.description]);
    for (const [k, v] of Object.entries(info.extra ?? {})) if (v !== undefined) rows.push([k, typeof v === 'string' ? v : JSON.stringify(v)]);
    for (const r of rows) this.db.run('INSERT OR REPLACE INTO metadata VALUES (?, ?)', r);
    await this.save(this.file);
    await rm(`${this.file}.partial`, { force: true });
    this.db.close();
  }

  /** Stop, keeping the tiles written so far in `<file>.partial` for --resume. */
  async close(): Promise<void> {
    try {
      if (this.have.size) await this.save(`${this.file}.partial`);
    } finally {
      this.db.close();
    }
  }

  private async save(to: string): Promise<void> {
    await writeFile(`${to}.tmp`, this.db.export());
    await rename(`${to}.tmp`, to);
  }
}
