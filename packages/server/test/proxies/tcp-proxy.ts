/**
 * A TCP proxy between a server under test and its database, so a test can cut the database off
 * (and restore it) without stopping the shared database server.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Closes every open connection and refuses new ones (connection refused). */
  cut(): Promise<void>;
  /**
   * Closes every open connection, then accepts new ones but never answers on them: a network
   * that swallows packets, where only timeouts help.
   */
  blackhole(): Promise<void>;
  /** Accepts connections again, on the same port, and forwards them. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let swallowing = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (swallowing) return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut: stop,
    async blackhole() {
      swallowing = true;
      for (const socket of sockets) socket.destroy();
      if (!server.listening) await listen(port);
    },
    async restore() {
      swallowing = false;
      if (!server.listening) await listen(port);
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
