/** Typed arrays end to end in a new one, made by `make(length)`. */
export function concat<T extends Uint8Array | Float64Array>(parts: readonly T[], make: (length: number) => T): T {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = make(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
