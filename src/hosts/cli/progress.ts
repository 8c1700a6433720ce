// Progress of a pyramid export on stderr: a redrawn bar on a TTY, plain periodic lines otherwise.

export interface ProgressOptions {
  total: number;
  /** Where to write (default process.stderr). */
  stream?: NodeJS.WriteStream | { write(s: string): boolean; isTTY?: boolean; columns?: number };
  /** 'auto' draws a bar on a TTY and plain lines elsewhere; 'none' is silent. */
  mode?: 'auto' | 'bar' | 'plain' | 'none';
  /** Seconds between plain lines (default 5). */
  every?: number;
  now?: () => number;
}

export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return '--:--';
  s = Math.max(0, Math.round(s));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const mm = String(m).padStart(h ? 2 : 1, '0');
  return `${h ? h + ':' : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

export class Progress {
  readonly total: number;
  done = 0;
  skipped = 0;
  private readonly stream: NonNullable<ProgressOptions['stream']>;
  private readonly mode: 'bar' | 'plain' | 'none';
  private readonly every: number;
  private readonly now: () => number;
  private readonly start: number;
  private lastDraw = 0;
  /** Recent (time, done) samples: the rate is measured over the last few seconds, not since start. */
  private readonly samples: [number, number][] = [];

  constructor(o: ProgressOptions) {
    this.total = o.total;
    this.stream = o.stream ?? process.stderr;
    const mode = o.mode ?? 'auto';
    this.mode = mode === 'auto' ? (this.stream.isTTY ? 'bar' : 'plain') : mode;
    this.every = (o.every ?? 5) * 1000;
    this.now = o.now ?? (() => performance.now());
    this.start = this.now();
    this.samples.push([this.start, 0]);
  }

  /** Tiles rendered per second over the last ~10 s. */
  rate(): number {
    const t = this.now();
    while (this.samples.length > 2 && t - this.samples[1]![0] > 10_000) this.samples.shift();
    const [t0, d0] = this.samples[0]!;
    const dt = (t - t0) / 1000;
    return dt > 0 ? (this.done - d0) / dt : 0;
  }

  /** Count tiles already present (--resume): they are done but not part of the rate. */
  skip(n: number): void {
    this.skipped += n;
    this.done += n;
    // As if they had been done before every sample: the rate counts rendered tiles only.
    for (const s of this.samples) s[1] += n;
    this.draw(false);
  }

  tick(n = 1): void {
    this.done += n;
    const t = this.now();
    const last = this.samples[this.samples.length - 1]!;
    if (t - last[0] > 1000) this.samples.push([t, this.done]);
    this.draw(false);
  }

  line(): string {
    const rate = this.rate();
    const left = this.total - this.done;
    const eta = rate > 0 ? left / rate : Infinity;
    const pct = this.total ? Math.floor((100 * this.done) / this.total) : 100;
    return `${this.done}/${this.total} tiles ${pct}% ${rate.toFixed(1)} tiles/s ETA ${formatDuration(left === 0 ? 0 : eta)}`;
  }

  private draw(final: boolean): void {
    if (this.mode === 'none') return;
    const t = this.now();
    if (this.mode === 'bar') {
      if (!final && t - this.lastDraw < 100) return;
      this.lastDraw = t;
      const width = Math.max(10, Math.min(40, ((this.stream as { columns?: number }).columns ?? 80) - 60));
      const filled = this.total ? Math.round((width * this.done) / this.total) : width;
      this.stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.line()}\x1b[K${final ? '\n' : ''}`);
      return;
    }
    if (!final && t - this.lastDraw < this.every) return;
    this.lastDraw = t;
    this.stream.write(this.line() + '\n');
  }

  /** Final summary line (always drawn unless silent). */
  finish(): string {
    const secs = (this.now() - this.start) / 1000;
    const rendered = this.done - this.skipped;
    const summary = `${rendered} tiles rendered${this.skipped ? `, ${this.skipped} already done` : ''} in ${secs.toFixed(1)} s (${secs > 0 ? (rendered / secs).toFixed(1) : '0'} tiles/s)`;
    if (this.mode === 'bar') this.draw(true);
    if (this.mode !== 'none') this.stream.write(summary + '\n');
    return summary;
  }
}
