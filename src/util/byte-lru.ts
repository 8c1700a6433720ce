// An LRU bounded by bytes (not entries: a 512 px ocean tile and a dense city tile differ 100x). Used for
// encoded tiles (server) and node results (render/node-cache.ts).

export class ByteLru<V extends { byteLength: number }> {
  private readonly map = new Map<string, V>();
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.map.size;
  }

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used.
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** The value without touching its recency. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.used -= old.byteLength;
      this.map.delete(key);
    }
    // Too large to hold: not kept, and the value it replaces is gone too (a get must never answer
    // with what was set before).
    if (value.byteLength > this.maxBytes) return;
    this.map.set(key, value);
    this.used += value.byteLength;
    while (this.used > this.maxBytes) {
      const [k, v] = this.map.entries().next().value!;
      this.map.delete(k);
      this.used -= v.byteLength;
    }
  }

  clear(): void {
    this.map.clear();
    this.used = 0;
  }
}
