import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A reverse proxy hop as nginx's `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`
// makes one: it appends the address its client connected from to X-Forwarded-For and passes the
// request on, connecting onwards from `localAddress`. Chained, they make a real multi-hop header.

export interface HopProxy {
  url: string;
  close(): Promise<void>;
}

export async function startHopProxy(target: string, localAddress: string): Promise<HopProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    const sent = headers['x-forwarded-for'];
    const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    headers['x-forwarded-for'] = sent ? `${Array.isArray(sent) ? sent.join(', ') : sent}, ${peer}` : peer;
    headers.host = upstream.host;
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers,
        localAddress,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
