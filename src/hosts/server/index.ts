// The tile server: the express app factory, the service behind it, and `serve`.
export { createApp, etagMatches, RESERVED_QUERY_KEYS, type AppOptions } from './app.js';
export { TileService, WORLD_BOUNDS, type TileServiceOptions, type TileResult } from './service.js';
export { serve, HTTP_DEFAULTS, type HttpLimits, type ServeOptions, type RunningServer } from './serve.js';
export { HttpError, toHttpError, type ErrorBody, type ErrorDetail } from './http-errors.js';
export { ByteLru } from '../../util/byte-lru.js';
export { RenderQueue, QueueFullError, RenderTimeoutError, ShuttingDownError } from './queue.js';
