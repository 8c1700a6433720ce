// PMTiles v3 (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) for raster PNG
// pyramids, one job per file: varint.ts (directory integers), header.ts (the 127-byte header),
// directory.ts (root and leaf directories), writer.ts (staging, journal, resume, assembly),
// reader.ts (local archives through the pmtiles package), merge.ts (shards into one archive).
export { zxyToTileId, tileIdToZxy } from 'pmtiles';
export { HEADER_BYTES, serializeHeader } from './header.js';
export { buildDirectories, serializeDirectory } from './directory.js';
export { PmtilesWriter, ResumeMismatchError, jobDifferences, type ArchiveInfo, type JobIdentity } from './writer.js';
export { archiveTiles, NodeFileSource, openArchive, type OpenArchive } from './reader.js';
export { mergeArchives, mergedMetadata } from './merge.js';
