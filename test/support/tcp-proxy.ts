import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy on a fixed local port to a target, which a test stops and starts to take the target away. */
export interface TcpProxy {
  readonly port: number;
  /** Accepts connections and forwards them to the target. */
  start(): Promise<void>;
  /** Refuses new connections and cuts the open ones, as a server that went down. */
  stop(): Promise<void>;
}

export function tcpProxy(port: number, target: { host: string; port: number }): TcpProxy {
  let server: Server | null = null;
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  return {
    port,
    start() {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      const listening = server;
      return new Promise((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', () => resolve());
      });
    },
    stop() {
      const closing = server;
      server = null;
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    },
  };
}
