import { Stream } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import compressible from 'compressible';
import type { Middleware } from 'koa';
import compress from 'koa-compress';
import type { AppContext, AppContextExtension, AppState } from './context.js';

/** Below this an answer gains less from compression than it costs. */
const THRESHOLD_BYTES = 1024;
/** Answers up to this size are compressed at once; larger ones in zlib's thread pool. */
const INLINE_BYTES = 64 * 1024;
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Streams (file downloads) are compressed by koa-compress as they flow. */
const compressStreams = compress({ threshold: THRESHOLD_BYTES, deflate: false });

const brotliOptions = (size: number) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});

/**
 * Compresses an answer held whole (JSON, text, a buffer) in one call: a zlib stream per answer
 * costs several times the compression of a few kilobytes itself.
 */
async function compressWhole(ctx: AppContext): Promise<void> {
  const { body } = ctx;
  if (
    body === null ||
    body === undefined ||
    body instanceof Stream ||
    ctx.method === 'HEAD' ||
    [204, 205, 206, 304].includes(ctx.status) ||
    ctx.response.get('Content-Encoding') ||
    /no-transform/.test(ctx.response.get('Cache-Control'))
  )
    return;
  const type = ctx.response.type;
  // The same test koa-compress applies to the streams: the type's entry in the MIME database.
  if (!compressible(type || 'application/json')) return;
  const whole = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  if (whole.length < THRESHOLD_BYTES) return;
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding !== 'br' && encoding !== 'gzip') return;
  const inline = whole.length <= INLINE_BYTES;
  const compressed =
    encoding === 'br'
      ? inline
        ? brotliCompressSync(whole, brotliOptions(whole.length))
        : await brotliAsync(whole, brotliOptions(whole.length))
      : inline
        ? gzipSync(whole, { level: GZIP_LEVEL })
        : await gzipAsync(whole, { level: GZIP_LEVEL });
  ctx.body = compressed;
  ctx.type = type || 'application/json';
  ctx.set('Content-Encoding', encoding);
}

/**
 * Compresses the API's answers of 1 KB and more (brotli at quality 4 or gzip, as the client
 * accepts): lists of bookings and patients shrink several times, which is most of a dashboard's
 * load on a slow connection. Static files are compressed by `serveStatic` itself (precompressed
 * by the build or kept compressed in memory), and answers that set their own encoding, like the
 * kept daily availability, are left as they are.
 */
export const compressApi: Middleware<AppState, AppContextExtension> = (ctx, next) =>
  ctx.path.startsWith('/api/')
    ? compressStreams(ctx, async () => {
        await next();
        await compressWhole(ctx);
      })
    : next();
