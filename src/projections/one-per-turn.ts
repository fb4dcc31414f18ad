/**
 * Turns of the event loop a piece of work may wait while the servers accept connections, in a row:
 * bounded, so that a stream of new connections cannot hold the work back for good.
 */
const MAX_TURNS_WAITING_FOR_ACCEPTS = 64;

/** Whether a server accepted a connection since a queue last looked. */
let accepted = false;

/**
 * Called by the HTTP servers for each connection they accept. libuv, as Node 20 ships it (1.46), accepts
 * one connection per turn of the event loop: with a piece of work run in every turn, the last of a burst
 * of 32 new connections was accepted after 31 reads, and its request then waited behind those of the
 * connections accepted before it. Queued work waits until a turn accepts none, as if libuv accepted them
 * all at once (at 1M records, the first searches of 32 new connections: p99 64 ms before, 55 ms after,
 * medians of 6 runs).
 */
export function connectionAccepted(): void {
  accepted = true;
}

/**
 * Runs each piece of work in a turn of the event loop of its own, in the order given. Between two pieces
 * the loop polls its sockets: requests answered from memory do not wait behind a queue of SQL, and
 * new connections are accepted first (see `connectionAccepted`).
 */
export function onePerTurn(): <T>(work: () => T) => Promise<T> {
  const waiting: (() => void)[] = [];
  let turnsWaited = 0;
  const runNext = () => {
    const accepting = accepted && turnsWaited < MAX_TURNS_WAITING_FOR_ACCEPTS;
    accepted = false;
    if (accepting) {
      turnsWaited++;
    } else {
      turnsWaited = 0;
      waiting.shift()?.();
    }
    if (waiting.length) setImmediate(runNext);
  };
  return (work) =>
    new Promise((resolve, reject) => {
      const run = () => {
        try {
          resolve(work());
        } catch (error) {
          reject(error);
        }
      };
      if (waiting.push(run) === 1) setImmediate(runNext);
    });
}
