/**
 * A fault-injecting TCP proxy for tests: it forwards a local port to a target (PostgreSQL, a broker) and
 * can cut every open connection at once, refuse new ones (the port stops listening: ECONNREFUSED) and
 * take them again on the same port.
 */
import net from 'node:net';

export interface TcpProxy {
  /** The local port clients connect to. */
  readonly port: number;
  /** Connections open through the proxy right now. */
  readonly open: number;
  /**
   * Drops every open connection, both sides: 'close' ends them as a crashed server's kernel does (FIN),
   * 'reset' aborts them as a broken network does (RST, ECONNRESET).
   */
  cut(how?: 'close' | 'reset'): void;
  /** Stops listening: new connections are refused until restore(). Open connections stay unless cut. */
  refuse(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, listenPort = 0): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let port = listenPort;

  const onConnection = (client: net.Socket) => {
    const upstream = net.connect({ host: target.host, port: target.port });
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = (server: net.Server) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });

  let server: net.Server | null = net.createServer(onConnection);
  await listen(server);

  const cut = (how: 'close' | 'reset' = 'close') => {
    for (const { client, upstream } of pairs) {
      if (how === 'reset') {
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      } else {
        client.destroy();
        upstream.destroy();
      }
    }
    pairs.clear();
  };

  return {
    get port() {
      return port;
    },
    get open() {
      return pairs.size;
    },
    cut,
    async refuse() {
      // close() stops accepting at once; its callback would wait for the open connections, which stay.
      server?.close();
      server = null;
    },
    async restore() {
      if (server) return;
      const next = net.createServer(onConnection);
      await listen(next);
      server = next;
    },
    async close() {
      cut();
      const current = server;
      server = null;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
  };
}
