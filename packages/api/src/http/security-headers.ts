import type { Middleware } from 'koa';
import type { AppContextExtension, AppState } from './context.js';
import { isApiPath } from './paths.js';

/** The console is a same-origin SPA: its own scripts, its own API, no framing by anyone. */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix primitives and charts set inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** API answers are data, never documents to render or frame. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const PERMISSIONS_POLICY = [
  // The scanner setup page may use the device camera to read kit barcodes.
  'camera=(self)',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'interest-cohort=()',
].join(', ');

export function securityHeaders(options: {
  publicUrl: string | undefined;
}): Middleware<AppState, AppContextExtension> {
  const httpsPublicUrl = options.publicUrl?.startsWith('https://') ?? false;
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (ctx.secure || httpsPublicUrl)
      ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (isApiPath(ctx.path)) {
      ctx.set('Content-Security-Policy', API_CSP);
      ctx.set('X-Frame-Options', 'DENY');
      ctx.set('Cache-Control', 'no-store');
    } else if (ctx.path.startsWith('/widgets/')) {
      // Widget bundles are loaded by partner sites with a script tag.
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.set('Access-Control-Allow-Origin', '*');
    } else {
      ctx.set('Content-Security-Policy', CONSOLE_CSP);
      ctx.set('X-Frame-Options', 'DENY');
    }
    await next();
    // Handlers never make an API answer cacheable, errors included.
    if (isApiPath(ctx.path)) ctx.set('Cache-Control', 'no-store');
  };
}
