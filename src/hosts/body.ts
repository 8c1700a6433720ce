// Reading an HTTP answer with a bound, for the Node and the browser loaders (fetch API only, no
// Node imports): a source can never make a host hold an unbounded body.
import { formatBytes } from '../limits.js';
import { concat } from '../util/concat.js';
import { readAtMost } from '../util/read-stream.js';

/**
 * An HTTP body, never held unbounded: past `max` bytes (declared or received) it is refused, or,
 * with `prefix` (a range the server ignored), cut at `max` and the rest not downloaded.
 */
export async function readBody(res: Response, ref: string, max: number, prefix = false): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  const tooBig = () => Object.assign(new Error(`the answer of ${ref} is larger than ${formatBytes(max)} (the limit)`), { http: true });
  if (declared > max && !prefix) throw tooBig();
  if (!res.body) return new Uint8Array(0);
  const chunks = await readAtMost(res.body, max, () => {
    if (!prefix) throw tooBig();
  });
  return concat(chunks, (n) => new Uint8Array(n));
}
