// Unsigned LEB128 varints as PMTiles directories use them (spec v3 §4).

/** Append `n` as a varint. Values reach 2^53 (tile IDs, offsets): arithmetic, not 32-bit shifts. */
export function pushVarint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}
