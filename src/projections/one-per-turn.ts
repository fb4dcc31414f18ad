/**
 * Turns of the event loop a piece of work may wait while the servers accept connections, in a row:
 * bounded, so that a stream of new connections cannot hold the work back for good.
 */
const MAX_TURNS_WAITING_FOR_ACCEPTS = 64;

/** Whether a server accepted a connection since a queue last looked. */
let accepted = false;

/**
 * Called by the HTTP servers for each connection they accept. libuv accepts one connection per turn
 * of the event loop, so the first of a burst of new connections would otherwise be answered while the
 * last ones still wait in the listening socket's queue, one turn (one piece of work) each; queued work
 * waits until a turn accepts none, as it did when libuv accepted them all in one turn.
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
