import type { Middleware } from 'koa';
import compress from 'koa-compress';
import type { AppContextExtension, AppState } from './context.js';

/** Below this an answer gains less from compression than it costs. */
const THRESHOLD_BYTES = 1024;

const compressAnswer = compress({ threshold: THRESHOLD_BYTES, deflate: false });

/**
 * Compresses the API's answers of 1 KB and more (brotli at quality 4 or gzip, as the client
 * accepts): lists of bookings and patients shrink several times, which is most of a dashboard's
 * load on a slow connection. Static files are compressed by `serveStatic` itself (precompressed
 * by the build or kept compressed in memory), and answers that set their own encoding, like the
 * kept daily availability, are left as they are.
 */
export const compressApi: Middleware<AppState, AppContextExtension> = (ctx, next) =>
  ctx.path.startsWith('/api/') ? compressAnswer(ctx, next) : next();
