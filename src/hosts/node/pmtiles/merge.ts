// `tilegraph merge`: join archives (e.g. the shards of one export) into one. Zoom range and bounds
// are the union; a tile in two inputs must have the same bytes; inputs of different jobs (style
// version, params, tile size) are refused. The metadata is the merge's own, not the first input's.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { TileType, tileIdToZxy, type Header } from 'pmtiles';
import { archiveTiles, openArchive } from './reader.js';
import { jobDifferences, PmtilesWriter, type ArchiveInfo, type JobIdentity } from './writer.js';

type Meta = Record<string, unknown> & { tilegraph?: { job?: JobIdentity } & Record<string, unknown> };

/** A job without its shard: what every shard of one export shares. */
const unsharded = (job: JobIdentity | undefined): JobIdentity | undefined => {
  if (!job) return undefined;
  const { shard: _shard, ...rest } = job;
  return rest;
};

/** The merged archive's metadata, from every input's. */
export function mergedMetadata(files: string[], metas: Meta[], info: ArchiveInfo): Record<string, unknown> {
  const first = metas[0] ?? {};
  const jobs = metas.map((m) => unsharded(m.tilegraph?.job));
  const job = jobs[0];
  for (let i = 1; i < jobs.length; i++) {
    if (!job || !jobs[i]) continue;
    const diff = jobDifferences(job, jobs[i]!);
    if (diff.length) throw new Error(`${files[i]} is of a different job than ${files[0]} (${diff.join('; ')}); merge only the shards of one export`);
  }
  const attribution = [
    ...new Set(
      metas
        .flatMap((m) => (typeof m.attribution === 'string' ? m.attribution.split(' | ') : []))
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const out: Record<string, unknown> = {};
  for (const k of ['name', 'description', 'format', 'type', 'version', 'tileSize']) if (first[k] !== undefined) out[k] = first[k];
  if (attribution.length) out.attribution = attribution.join(' | ');
  out.minzoom = info.minZoom;
  out.maxzoom = info.maxZoom;
  out.bounds = info.bounds;
  out.tilegraph = { merged: files.length, ...(job ? { style: job.style, version: job.version, params: job.params, job } : {}) };
  return out;
}

export async function mergeArchives(inputs: string[], out: string): Promise<Header> {
  if (inputs.length === 0) throw new Error('merge needs at least one input archive');
  const w = await PmtilesWriter.open(out);
  const seen = new Map<number, string>();
  const metas: Meta[] = [];
  let info: ArchiveInfo | undefined;
  try {
    for (const file of inputs) {
      const a = await openArchive(file);
      try {
        const h = a.header;
        if (h.tileType !== TileType.Png && h.tileType !== TileType.Webp) throw new Error(`${file} holds tile type ${h.tileType}, not PNG or WebP`);
        if (info && h.tileType !== info.tileType)
          throw new Error(`${file} holds tile type ${h.tileType}, but ${inputs[0]} holds ${info.tileType}: merge archives of one format`);
        metas.push(((await a.pmtiles.getMetadata().catch(() => ({}))) ?? {}) as Meta);
        info = info
          ? {
              ...info,
              minZoom: Math.min(info.minZoom, h.minZoom),
              maxZoom: Math.max(info.maxZoom, h.maxZoom),
              bounds: [
                Math.min(info.bounds[0], h.minLon),
                Math.min(info.bounds[1], h.minLat),
                Math.max(info.bounds[2], h.maxLon),
                Math.max(info.bounds[3], h.maxLat),
              ],
            }
          : { minZoom: h.minZoom, maxZoom: h.maxZoom, bounds: [h.minLon, h.minLat, h.maxLon, h.maxLat], tileType: h.tileType };
        for await (const t of archiveTiles(a)) {
          const digest = createHash('sha1').update(t.bytes).digest('base64');
          const before = seen.get(t.tileId);
          if (before !== undefined) {
            if (before === digest) continue;
            const [z, x, y] = tileIdToZxy(t.tileId);
            throw new Error(`tile ${z}/${x}/${y} is in more than one input with different contents (${file})`);
          }
          seen.set(t.tileId, digest);
          await w.writeId(t.tileId, t.bytes);
        }
      } finally {
        await a.close();
      }
    }
    const [w0, s0, e0, n0] = info!.bounds;
    const metadata = mergedMetadata(inputs, metas, info!);
    return await w.finish({ ...info!, metadata, center: [(w0 + e0) / 2, (s0 + n0) / 2, info!.minZoom] });
  } catch (e) {
    await w.close();
    await rm(out + '.tiles.tmp', { force: true });
    await rm(out + '.journal', { force: true });
    throw e;
  }
}
