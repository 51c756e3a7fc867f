import net from 'node:net';

// A TCP relay in front of the PostgreSQL server that a test can block: while blocked, every open
// connection through it is cut and new ones are refused, as when the database is down or a
// network partition separates the API from it; unblocked, it relays again.

export interface BlockableProxy {
  /** The local port clients connect to. */
  port: number;
  block(): Promise<void>;
  unblock(): Promise<void>;
  close(): Promise<void>;
}

export async function startBlockableProxy(target: { host: string; port: number }): Promise<BlockableProxy> {
  const sockets = new Set<net.Socket>();
  const relay = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  };
  let server = net.createServer(relay);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    port,
    block: stop,
    unblock: async () => {
      server = net.createServer(relay);
      await listen(port);
    },
    close: stop,
  };
}
