// Output names that tell the truth (issue 23): `--out o.jpg` writes JPEG, `.webp` WebP, `.mbtiles`
// an MBTiles 1.3 database; an extension tilegraph does not write is refused before rendering.
// Witnesses: libvips (sharp) decodes the images; the MBTiles database is read back by the system's
// SQLite through Python's sqlite3 module (where python3 is there, as in CI) and by sql.js, and its
// rows are checked against the text of the MBTiles 1.3 spec.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import initSqlJs from 'sql.js';
import { MbtilesWriter, tmsRow } from '../../src/hosts/node/mbtiles.js';
import { requireBuild, ROOT, writeFixtures, type Fixture } from '../server/fixtures.js';
import { cli } from './helpers.js';

let fx: Fixture;
let tmp: string;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-formats-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WORLD = path.join(ROOT, 'examples/world/style.json');

/** Web Mercator: longitude and latitude of a (fractional) tile position (the closed form of the slippy-map tile scheme). */
const tileToLngLat = (x: number, y: number, z: number): [number, number] => [
  (x / 2 ** z) * 360 - 180,
  (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI,
];

/** Mean absolute difference per channel (0..255) of two RGB(A) images of one size, on RGB. */
async function meanDiff(a: string | Buffer, b: string | Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  expect([x!.info.width, x!.info.height]).toEqual([y!.info.width, y!.info.height]);
  let sum = 0;
  for (let i = 0; i < x!.data.length; i++) sum += Math.abs(x!.data[i]! - y!.data[i]!);
  return sum / x!.data.length;
}

describe('tile and bbox write the format the extension names', () => {
  test('.jpg and .jpeg are JPEG (libvips reads them), close to the PNG of the same tile; --quality trades size', async () => {
    const png = path.join(tmp, 'w.png');
    expect((await cli(['tile', '--style', WORLD, '--tile', '2/2/1', '--out', png])).code).toBe(0);
    const sizes: number[] = [];
    for (const [name, q] of [
      ['w.jpg', '95'],
      ['w.jpeg', '30'],
    ] as const) {
      const out = path.join(tmp, name);
      const r = await cli(['tile', '--style', WORLD, '--tile', '2/2/1', '--out', out, '--quality', q]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`(tile 2/2/1, 256x256, JPEG at quality ${q})`);
      const meta = await sharp(out).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, channels: meta.channels }).toEqual({
        format: 'jpeg',
        width: 256,
        height: 256,
        channels: 3,
      });
      expect(await meanDiff(out, png)).toBeLessThan(q === '95' ? 2 : 10);
      sizes.push(readFileSync(out).length);
    }
    expect(sizes[1]).toBeLessThan(sizes[0]!);
  });

  test('JPEG has no alpha: transparent pixels are flattened onto white', async () => {
    // The shapes style leaves everything outside its polygons transparent.
    const out = path.join(tmp, 'shapes.jpg');
    expect((await cli(['tile', '--style', fx.shapes, '--tile', '0/0/0', '--out', out])).code).toBe(0);
    const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((v) => v >= 250)).toBe(true); // the north-west corner: no shape
  });

  test('bbox writes .webp as WebP and .jpg as JPEG', async () => {
    for (const [name, format] of [
      ['e.webp', 'webp'],
      ['e.jpg', 'jpeg'],
    ]) {
      const out = path.join(tmp, name!);
      const r = await cli(['bbox', '--style', WORLD, '--bbox', '-10,35,30,60', '--zoom', '3', '--out', out]);
      expect(r.code).toBe(0);
      expect((await sharp(out).metadata()).format).toBe(format);
    }
  });

  test('an extension tilegraph does not write is refused before rendering, writing nothing', async () => {
    for (const name of ['o.tif', 'o.gif', 'o.mbtiles']) {
      const out = path.join(tmp, name);
      const r = await cli(['tile', '--style', WORLD, '--tile', '0/0/0', '--out', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `tilegraph: usage error: --out '${out}': the extension names no format tilegraph writes here; use .png, .jpg (or .jpeg) or .webp\n`,
      );
      expect(existsSync(out)).toBe(false);
    }
    const q = await cli(['tile', '--style', WORLD, '--tile', '0/0/0', '--out', path.join(tmp, 'q.jpg'), '--quality', '0']);
    expect([q.code, q.stderr]).toEqual([1, "tilegraph: usage error: --quality '0' is not an integer from 1 to 100\n"]);
  });
});

describe('tiles --out x.mbtiles writes an MBTiles 1.3 database', () => {
  const python = (() => {
    try {
      execFileSync('python3', ['-c', 'import sqlite3'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (!python) console.warn('python3 with sqlite3 is ABSENT: the MBTiles database is read back by sql.js only');

  /** Every row of a query, read by the system's SQLite (Python) when present, else by sql.js. */
  async function query(file: string, sql: string): Promise<unknown[][]> {
    const SQL = await initSqlJs();
    const db = new SQL.Database(readFileSync(file));
    const viaSqlJs = db.exec(sql)[0]?.values.map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v))) ?? [];
    db.close();
    if (!python) return viaSqlJs;
    const script = `import sqlite3,sys,json,base64
c=sqlite3.connect(sys.argv[1])
print(json.dumps([[base64.b64encode(v).decode() if isinstance(v,bytes) else v for v in r] for r in c.execute(sys.argv[2])]))`;
    const viaPython = JSON.parse(execFileSync('python3', ['-c', script, file, sql], { encoding: 'utf8' })) as unknown[][];
    expect(viaPython).toEqual(viaSqlJs); // two SQLite builds read the same rows
    return viaPython;
  }

  test('metadata rows and tiles at TMS rows; the tiles decode to the PNGs the tile command writes', async () => {
    const out = path.join(tmp, 'world.mbtiles');
    const r = await cli(['tiles', '--style', WORLD, '--max-zoom', '1', '--out', out, '--progress', 'none']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(out).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
    // "application_id" at byte 68: the officially assigned magic number of MBTiles, 0x4d504258 ("MPBX").
    expect(readFileSync(out).readUInt32BE(68)).toBe(0x4d504258);
    const meta = Object.fromEntries(await query(out, 'SELECT name, value FROM metadata')) as Record<string, string>;
    // MBTiles 1.3: "Two keys are required: name, format"; "bounds ... left, bottom, right, top";
    // "center: The longitude, latitude, and zoom level"; minzoom, maxzoom; attribution.
    expect(meta).toMatchObject({
      name: 'World',
      format: 'png',
      bounds: '-180,-85.0511287798066,180,85.0511287798066',
      center: '0,0,0',
      minzoom: '0',
      maxzoom: '1',
      attribution: 'Made with Natural Earth (public domain), via world-atlas',
    });
    const rows = await query(out, 'SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3');
    expect(rows.map((t) => t.slice(0, 3))).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 1],
      [1, 1, 0],
      [1, 1, 1],
    ]);
    // The Y axis is reversed: XYZ tile 1/0/0 (north-west) is tile_row 2^1 - 1 - 0 = 1.
    const nw = rows.find((t) => t[0] === 1 && t[1] === 0 && t[2] === 1)![3] as string;
    const single = path.join(tmp, '1-0-0.png');
    expect((await cli(['tile', '--style', WORLD, '--tile', '1/0/0', '--out', single])).code).toBe(0);
    expect(await meanDiff(Buffer.from(nw, 'base64'), single)).toBe(0);
    expect((await sharp(Buffer.from(nw, 'base64')).metadata()).format).toBe('png');
  });

  test("the spec's own example: tile 11/327/791 is inserted as tile_row 1256", async () => {
    expect(tmsRow(11, 791)).toBe(1256);
    const [w, n] = tileToLngLat(327.4, 791.4, 11);
    const [e, s] = tileToLngLat(327.6, 791.6, 11);
    const out = path.join(tmp, 'sf.mbtiles');
    const r = await cli([
      'tiles',
      '--style',
      WORLD,
      '--bbox',
      `${w},${s},${e},${n}`,
      '--min-zoom',
      '11',
      '--max-zoom',
      '11',
      '--out',
      out,
      '--progress',
      'none',
    ]);
    expect(r.code).toBe(0);
    expect(await query(out, 'SELECT zoom_level, tile_column, tile_row FROM tiles')).toEqual([[11, 327, 1256]]);
  });

  test('--format jpeg: JPEG tiles, metadata format jpg; into a directory: z/x/y.jpg', async () => {
    const out = path.join(tmp, 'j.mbtiles');
    expect((await cli(['tiles', '--style', WORLD, '--max-zoom', '0', '--format', 'jpeg', '--out', out, '--progress', 'none'])).code).toBe(0);
    expect(await query(out, "SELECT value FROM metadata WHERE name = 'format'")).toEqual([['jpg']]);
    const [[data]] = (await query(out, 'SELECT tile_data FROM tiles')) as [[string]];
    expect((await sharp(Buffer.from(data, 'base64')).metadata()).format).toBe('jpeg');
    const dir = path.join(tmp, 'jdir');
    expect((await cli(['tiles', '--style', WORLD, '--max-zoom', '1', '--format', 'jpg', '--out', dir, '--progress', 'none'])).code).toBe(0);
    expect(readdirSync(path.join(dir, '1', '0')).sort()).toEqual(['0.jpg', '1.jpg']);
    expect((await sharp(path.join(dir, '1', '0', '1.jpg')).metadata()).format).toBe('jpeg');
  });

  test('an --out with a file extension tiles does not write is refused (it used to become a directory)', async () => {
    for (const name of ['pyramid.zip', 'pyramid.png', 'pyramid.sqlite']) {
      const out = path.join(tmp, name);
      const r = await cli(['tiles', '--style', WORLD, '--max-zoom', '0', '--out', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `tilegraph: usage error: --out '${out}': tiles writes a directory (z/x/y files), a .pmtiles or an .mbtiles archive; name one of them\n`,
      );
      expect(existsSync(out)).toBe(false);
    }
  });

  test('the archive is bounded (it is built in memory); an interrupted one resumes from <file>.partial', async () => {
    const file = path.join(tmp, 'small.mbtiles');
    const w = await MbtilesWriter.open(file, { job: { a: 1 }, maxBytes: 10 });
    await w.write(0, 0, 0, new Uint8Array(6));
    await expect(w.write(1, 0, 0, new Uint8Array(6))).rejects.toThrow(
      /the MBTiles archive would hold more than 10 bytes of tiles \(it is built in memory\); write a \.pmtiles archive or a directory/,
    );
    await w.close();
    expect(existsSync(`${file}.partial`)).toBe(true);
    await expect(MbtilesWriter.open(file, { job: { a: 2 }, resume: true })).rejects.toThrow(/different job \(a 1, now 2\)/);
    const again = await MbtilesWriter.open(file, { job: { a: 1 }, resume: true });
    expect([again.has(0, 0, 0), again.has(1, 0, 0)]).toEqual([true, false]);
    await again.write(1, 0, 0, new Uint8Array(3));
    await again.finish({ name: 'n', format: 'png', bounds: [-180, -85, 180, 85], center: [0, 0, 0], minzoom: 0, maxzoom: 1 });
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(await query(file, 'SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles ORDER BY 1')).toEqual([
      [0, 0, 0, 6],
      [1, 0, 1, 3],
    ]);
  });
});
