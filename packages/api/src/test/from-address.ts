import http from 'node:http';
import type { TestResponse } from './server.js';

// Requests sent from a chosen loopback address (127.0.0.0/8 all reach the test server), so a test
// can be several clients at once, as a proxy or a NAT would show them, without faking headers.

export interface FromAddressOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request from `localAddress` (e.g. `127.0.0.7`) to the test server at `baseUrl`. */
export function requestFrom<T = Record<string, unknown>>(
  baseUrl: string,
  localAddress: string,
  method: string,
  urlPath: string,
  options: FromAddressOptions = {},
): Promise<TestResponse<T>> {
  const url = new URL(urlPath, baseUrl);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
          }
          const json = responseHeaders.get('content-type')?.includes('application/json') && text !== '';
          resolve({
            status: res.statusCode ?? 0,
            body: (json ? JSON.parse(text) : text) as T,
            text,
            headers: responseHeaders,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
