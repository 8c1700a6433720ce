// The GPU bench's HTTP load (bench/gpu/bench.mjs, server section): `concurrency` clients request
// `urls` round robin for `seconds`; requests still running 5 s after the end are abandoned
// (counted as unfinished, not timed).
//
// Each request has an abort signal of its own (AbortSignal.timeout to the common end). One signal
// shared by every fetch leaks: undici adds an abort listener per request to the signal and drops
// it only when the request is garbage-collected, so a load of thousands of requests piled up
// thousands of listeners (the H100 run's 'MaxListenersExceededWarning: ... 2600 abort listeners
// added to [AbortSignal]'; tests/server/bench-load.test.ts).
const now = () => performance.now();

/** `maxRequests`: stop starting requests after this many (tests). */
export async function load(urls, seconds, concurrency = 64, { maxRequests = Infinity } = {}) {
  const lat = [];
  let next = 0;
  let failed = 0;
  let unfinished = 0;
  let firstError;
  const t0 = now();
  const end = t0 + seconds * 1000;
  const stopAt = end + 5000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (now() < end && next < maxRequests) {
        const url = urls[next++ % urls.length];
        const s = now();
        const signal = AbortSignal.timeout(Math.max(1, Math.ceil(stopAt - s)));
        try {
          const r = await fetch(url, { signal });
          const body = await r.arrayBuffer();
          if (r.status !== 200) {
            failed++;
            firstError ??= `${r.status} ${Buffer.from(body).toString().slice(0, 200)}`;
          }
        } catch (e) {
          if (signal.aborted) {
            unfinished++;
            continue;
          }
          failed++;
          firstError ??= String(e?.message ?? e).split('\n')[0];
        }
        lat.push(now() - s);
      }
    }),
  );
  const secs = Math.min((now() - t0) / 1000, seconds + 5);
  lat.sort((a, b) => a - b);
  const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
  return { requests: lat.length, failed, unfinished, firstError, seconds: secs, tilesPerS: (lat.length - failed) / secs, p50: pct(50), p99: pct(99) };
}
