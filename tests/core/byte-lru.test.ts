// ByteLru (src/util/byte-lru.ts): a cache bounded by bytes. Witness: the contract itself (a key
// maps to the value last set under it, or to nothing; the bytes held never pass the bound).
import { ByteLru } from '../../src/util/byte-lru.js';

const v = (n: number, tag = 0) => Object.assign(new Uint8Array(n), { tag });

describe('ByteLru', () => {
  test('a value over the budget set under a held key removes the old value (issue 19: it stayed, and get returned stale data)', () => {
    const c = new ByteLru<Uint8Array & { tag: number }>(100);
    c.set('k', v(40, 1));
    c.set('k', v(101, 2));
    expect(c.get('k')).toBeUndefined();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });

  test('evicts the least recently used first and keeps bytes within the bound', () => {
    const c = new ByteLru<Uint8Array & { tag: number }>(100);
    c.set('a', v(40, 1));
    c.set('b', v(40, 2));
    expect(c.get('a')?.tag).toBe(1);
    c.set('c', v(40, 3));
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')?.tag).toBe(1);
    expect(c.bytes).toBe(80);
    c.set('a', v(10, 4));
    expect(c.get('a')?.tag).toBe(4);
    expect(c.bytes).toBe(50);
    c.set('d', v(100, 5));
    expect([c.size, c.bytes, c.get('d')?.tag]).toEqual([1, 100, 5]);
  });
});
