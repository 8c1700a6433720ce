// Address parsing, bbox windows and tile lists, shards, exit codes and the progress display.
import { ParamError, StyleError } from '../../src/index.js';
import {
  bboxCenterLng,
  bboxTileRange,
  bboxTileRanges,
  bboxWindow,
  parseBbox,
  parseParams,
  parseShard,
  parseTile,
  tileBbox,
  joinNegativeValues,
} from '../../src/hosts/cli/args.js';
import { EXIT, exitCodeOf, oneLine, UsageError } from '../../src/hosts/cli/exit.js';
import { formatDuration, Progress } from '../../src/hosts/cli/progress.js';
import { TileList } from '../../src/hosts/cli/tiles.js';

test('a bbox given by tile edges yields exactly those tiles, in pixels and in tiles', () => {
  for (const [z, x, y] of [
    [3, 2, 2],
    [7, 100, 37],
    [14, 8190, 5000],
  ] as const) {
    const b = tileBbox(z, x, y);
    for (const size of [256, 512]) expect(bboxWindow(b, z, size)).toEqual({ z, x0: x * size, y0: y * size, width: size, height: size, tileSize: size });
    expect(bboxTileRange(b, z)).toEqual({ x0: x, y0: y, x1: x, y1: y });
  }
});

test('bbox windows floor the north-west corner and ceil the south-east corner', () => {
  // lng 0 is world pixel 256 at z1; lat 0 is 256 too. 1e-3 degrees is a fraction of a pixel.
  expect(bboxWindow([0.001, -0.001, 0.002, -0.0001], 1, 256)).toEqual({ z: 1, x0: 256, y0: 256, width: 1, height: 1, tileSize: 256 });
  expect(bboxWindow([-0.001, -0.001, 0.001, 0.001], 1, 256)).toEqual({ z: 1, x0: 255, y0: 255, width: 2, height: 2, tileSize: 256 });
  const world = bboxWindow(parseBbox('-180,-90,180,90'), 2, 256);
  expect(world).toEqual({ z: 2, x0: 0, y0: 0, width: 1024, height: 1024, tileSize: 256 });
});

test('parsing --tile, --bbox, --param, --shard', () => {
  expect(parseTile('3/7/0')).toEqual({ z: 3, x: 7, y: 0 });
  expect(() => parseTile('3/8/0')).toThrow(UsageError);
  expect(() => parseTile('3/-1/0')).toThrow(UsageError);
  expect(() => parseTile('a/b/c')).toThrow(/is not z\/x\/y/);
  expect(parseBbox(' -10, -20 , 30,40')).toEqual([-10, -20, 30, 40]);
  expect(parseBbox('-10,-89,30,89')).toEqual([-10, -85.0511287798066, 30, 85.0511287798066]);
  expect(() => parseBbox('1,2,3')).toThrow(UsageError);
  expect(parseBbox('170,0,-170,10')).toEqual([170, 0, -170, 10]);
  expect(() => parseBbox('10,0,10,10')).toThrow(/no width/);
  expect(parseParams(['a=1', 'c=#ff0000', 'a=2', 'e=x=y'])).toEqual({ a: '2', c: '#ff0000', e: 'x=y' });
  expect(() => parseParams(['=1'])).toThrow(ParamError);
  expect(parseShard(undefined)).toEqual({ index: 0, count: 1 });
  expect(parseShard('2/5')).toEqual({ index: 2, count: 5 });
  expect(() => parseShard('5/5')).toThrow(UsageError);
});

test('shards cover the tile list exactly once, in contiguous blocks', () => {
  const list = new TileList(parseBbox('-30,-20,60,50'), 2, 6);
  const all = [...list.slice(0, list.total)].map((t) => `${t.z}/${t.x}/${t.y}`);
  expect(all.length).toBe(list.total);
  expect(new Set(all).size).toBe(list.total);
  for (const n of [1, 3, 7, 1000]) {
    const got: string[] = [];
    for (let i = 0; i < n; i++) {
      const { start, end } = list.shard(i, n);
      for (const t of list.slice(start, end)) got.push(`${t.z}/${t.x}/${t.y}`);
    }
    expect(got).toEqual(all);
  }
  // Zoom 2 of this box: columns floor(150/360*4)=1 .. floor(240/360*4)=2, rows 1 (north) .. 2 (south of the equator).
  expect(list.ranges[0]).toMatchObject({ z: 2, x0: 1, x1: 2, y0: 1, y1: 2, count: 4 });
});

test('exit codes and one-line messages', () => {
  expect(exitCodeOf(new UsageError('x'))).toBe(EXIT.usage);
  expect(
    exitCodeOf(
      new StyleError([
        { pointer: '/a', message: 'one' },
        { pointer: '/b', message: 'two' },
      ]),
    ),
  ).toBe(EXIT.style);
  expect(
    oneLine(
      new StyleError([
        { pointer: '/a', message: 'one' },
        { pointer: '/b', message: 'two' },
      ]),
    ),
  ).toBe('tilegraph: style error: /a: one; /b: two');
  expect(exitCodeOf(new ParamError('p'))).toBe(EXIT.param);
  expect(exitCodeOf(new Error('disk full'))).toBe(EXIT.output);
  expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
});

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 100, write: (s: string) => (writes.push(s), true) } };
}

test('progress: a redrawn bar on a TTY with count, rate and ETA', () => {
  let now = 0;
  const { writes, stream } = fakeStream(true);
  const p = new Progress({ total: 100, stream, now: () => now });
  for (let i = 0; i < 40; i++) {
    now += 50; // 20 tiles/s
    p.tick();
  }
  const last = writes[writes.length - 1]!;
  expect(last.startsWith('\r[')).toBe(true);
  expect(last).toContain('40/100 tiles 40% 20.0 tiles/s ETA 0:03');
  // At most one redraw per 100 ms.
  expect(writes.length).toBeLessThanOrEqual(21);
  p.finish();
  expect(writes[writes.length - 1]).toBe('40 tiles rendered in 2.0 s (20.0 tiles/s)\n');
});

test('progress: plain periodic lines when stderr is not a TTY; resumed tiles do not inflate the rate', () => {
  let now = 0;
  const { writes, stream } = fakeStream(false);
  const p = new Progress({ total: 1000, stream, now: () => now, every: 5 });
  p.skip(500);
  for (let i = 0; i < 100; i++) {
    now += 100; // 10 tiles/s over 10 s
    p.tick();
  }
  expect(writes.every((w) => !w.includes('\r') && w.endsWith('\n'))).toBe(true);
  expect(writes.length).toBeLessThanOrEqual(3);
  expect(p.line()).toBe('600/1000 tiles 60% 10.0 tiles/s ETA 0:40');
  expect(formatDuration(3725)).toBe('1:02:05');
});

test('a --bbox value with a western or southern first coordinate is not read as flags', () => {
  expect(joinNegativeValues(['bbox', '--bbox', '-10,35,30,60', '--zoom', '4'])).toEqual(['bbox', '--bbox=-10,35,30,60', '--zoom', '4']);
  expect(joinNegativeValues(['bbox', '--bbox', '10,35,30,60'])).toEqual(['bbox', '--bbox', '10,35,30,60']);
  expect(joinNegativeValues(['tile', '--tile', '1/0/0', '-h'])).toEqual(['tile', '--tile', '1/0/0', '-h']);
});

describe('--param names that are Object.prototype names (issue 13 defect 4)', () => {
  test('__proto__ and constructor are ordinary (undeclared) names, not silently dropped', () => {
    const p = parseParams(['__proto__=1', 'constructor=2']);
    expect(Object.keys(p)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(p, '__proto__')?.value).toBe('1');
  });
});

describe('a bbox across the antimeridian (issue 13 defect 9)', () => {
  const b = parseBbox('170,-10,-170,10');
  test('one window running past the east edge of the world', () => {
    const w = bboxWindow(b, 2, 256);
    // x from 170 deg (world px 995.6 -> 995) to 190 deg (1052.4 -> 1053) of a 1024 px world.
    expect(w).toMatchObject({ z: 2, x0: 995, width: 58 });
    expect(bboxCenterLng(b)).toBe(180);
    expect(bboxCenterLng(parseBbox('160,-10,-170,10'))).toBe(175);
  });
  test('tiles: the eastern columns, then the western ones; every tile once', () => {
    const list = new TileList(b, 2, 3);
    const all = [...list.slice(0, list.total)].map((t) => `${t.z}/${t.x}/${t.y}`);
    expect(all).toEqual(['2/3/1', '2/3/2', '2/0/1', '2/0/2', '3/7/3', '3/7/4', '3/0/3', '3/0/4']);
    expect(bboxTileRanges(parseBbox('-10,-10,-20,10'), 1)).toEqual([{ x0: 0, x1: 1, y0: 0, y1: 1 }]);
  });
});
