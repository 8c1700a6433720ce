// Every size a user (a style author, a caller, a source file) can ask for has a bound here; past
// it: a TilegraphError, never a crash, a hang or unbounded memory. docs/format.md lists them.

export const LIMITS = {
  /** Largest margin of any node, in canvas pixels (a blur of sigma 341 pads 1,023 px). */
  maxMarginPx: 1024,
  /** Largest canvas of any node: window grown by its margin (4096 x 4096; 256 MiB as an RGBA float raster). */
  maxCanvasPixels: 4096 * 4096,
  /** Estimated peak bytes of one render: every raster / field canvas of the plan held at once. */
  maxRenderBytes: 2 * 1024 ** 3,
  /** Tile sizes a library render accepts (integers; the hosts take 256 and 512). */
  minTileSize: 1,
  maxTileSize: 4096,
  /**
   * Source tiles one canvas may span (a vector tile z/x/y covers render tile z/x/y at any tile
   * size: a 3 px tile size with a 900 px margin would load 360,000 of them).
   */
  maxTilesPerCanvas: 1024,
  /** Highest zoom a window may have (world pixels stay exact doubles far beyond it). */
  maxZoom: 30,
  /** Nesting depth of a style document (objects and arrays; expressions count). */
  maxStyleDepth: 64,
  /** Nodes of a style: in the document (function bodies included), and again after inlining the calls. */
  maxNodes: 1024,
  /** Longest chain of nodes, from a node without inputs to the one that reads it all, counted in nodes. */
  maxGraphDepth: 128,
  /** Function calls inside function calls (f calling g calling h is 3). */
  maxFunctionNesting: 16,
  /** A vector tile after gzip inflation. Real street tiles stay below 2 MiB. */
  maxTileBytes: 32 * 1024 * 1024,
  /** Pixels of a decoded source image (DEM tile), checked from its header before decoding. */
  maxImagePixels: 4096 * 4096,
  /** A whole source file or HTTP body (GeoJSON, a tile); archives are read by ranges. */
  maxSourceBytes: 512 * 1024 * 1024,
  /**
   * One byte range read from a file, and one range the server's /data route answers (a longer
   * request gets the first this many bytes, as a 206 whose Content-Range says so). Covers the
   * largest PMTiles block below.
   */
  maxRangeBytes: 32 * 1024 * 1024,
  /** The query string of one server request (params), in bytes as sent; past it 414. */
  maxQueryBytes: 8 * 1024,
  /** Problems an HTTP error body lists; the rest are counted in one more entry. */
  maxErrorDetails: 20,
  /** A PMTiles directory or metadata block, compressed or not. */
  maxPmtilesBlockBytes: 32 * 1024 * 1024,
  /** Highest zoom of a PMTiles archive (tile ids above z26 are not exact doubles). */
  maxArchiveZoom: 26,
} as const;

/** Bytes per pixel of a canvas of each kind on the CPU (features, scalars and sprites are not canvas-sized). */
export const CANVAS_BYTES_PER_PIXEL: Readonly<Record<string, number>> = { raster: 16, 'scalar-field': 4 };

/** Bytes in a human sentence: 1.5 GiB, 32 MiB, 812 KiB. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i ? n.toFixed(n < 10 ? 1 : 0) : n} ${units[i]}`;
}

/** 15000 -> "15,000". */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
