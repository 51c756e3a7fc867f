import type { AppContext } from './context.js';

// One rule for everything that depends on the console being served over HTTPS: the Secure flag of
// cookies and the Strict-Transport-Security header. It holds when PUBLIC_URL is an https:// origin
// (the deployment says so, whatever hop terminates TLS), or when this request itself came over TLS
// (directly, or through a trusted proxy's X-Forwarded-Proto).

export function isHttpsOrigin(publicUrl: string | undefined): boolean {
  return publicUrl?.startsWith('https://') ?? false;
}

export function servedOverHttps(ctx: Pick<AppContext, 'secure' | 'services'>): boolean {
  return ctx.secure || isHttpsOrigin(ctx.services.config.publicUrl);
}
