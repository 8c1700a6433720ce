// Reading a byte stream with a bound (an HTTP body, a stream being inflated): nothing past the
// bound is ever held, so a source can never make a host hold an unbounded answer or a bomb.

/**
 * The chunks of a stream, `max` bytes at most. A chunk that would pass `max` cancels the stream and
 * calls `over`, which throws (the bound refuses the stream) or returns (the first `max` bytes are kept).
 */
export async function readAtMost(stream: ReadableStream<Uint8Array>, max: number, over: () => void): Promise<Uint8Array[]> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.length > max) {
      await reader.cancel().catch(() => undefined);
      over();
      chunks.push(value.subarray(0, max - total));
      break;
    }
    total += value.length;
    chunks.push(value);
  }
  return chunks;
}
