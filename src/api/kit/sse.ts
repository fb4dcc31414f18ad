import type { ServerResponse } from 'node:http';

export interface SseStream {
  /** Sends one event (with the id a client resumes after, as `Last-Event-ID`); ignored once the client has gone. */
  send(event: string, data: unknown, id?: string): void;
  /** A comment line, which keeps the connection from being closed as idle. */
  keepAlive(): void;
  /**
   * Resolves once the client has taken what was sent, or has gone, and never in the same turn of the
   * event loop: a producer that awaits it between batches lets the process serve others meanwhile.
   */
  drained(): Promise<void>;
  /** Aborted when the client disconnects (or the stream is ended). */
  signal: AbortSignal;
  end(): void;
}

/** Resolves once the client has taken what it was sent, or has gone; leaves no listener behind. */
export function drainedOrGone(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Opens a server-sent event stream (`text/event-stream`): each event is `event: <name>` and one
 * `data:` line of JSON, after its `id:` line if it has one. A client that disconnects aborts `signal`, so the work behind it can stop.
 */
export function openSse(res: ServerResponse, headers: Record<string, string> = {}): SseStream {
  const controller = new AbortController();
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  // The response closes early when the client goes (a request's own `close` fires once its body is read).
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return {
    signal: controller.signal,
    send(event, data, id) {
      if (res.writableEnded || res.destroyed) return;
      res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    drained: () =>
      res.writableNeedDrain ? drainedOrGone(res) : new Promise((resolve) => setImmediate(resolve)),
    keepAlive() {
      if (!res.writableEnded && !res.destroyed) res.write(': keep-alive\n\n');
    },
    end() {
      if (!res.writableEnded) res.end();
    },
  };
}
