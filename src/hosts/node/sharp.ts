// sharp (libvips) as every Node host module uses it: without libvips' operation cache. That cache
// keeps the inputs and results of the last 100 operations (up to 50 MB, process-wide) in case one
// is repeated; tile work never repeats an operation (each DEM tile, each WebP encode is new), so
// it only held memory in the server (issue 23).
import sharp from 'sharp';

sharp.cache(false);

export default sharp;
