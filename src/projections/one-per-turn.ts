/**
 * Runs each piece of work in a turn of the event loop of its own, in the order given. Between two pieces
 * the loop polls its sockets: requests answered from memory do not wait behind a queue of SQL, and the
 * listening socket, from which libuv accepts one connection per turn, is not kept waiting either.
 */
export function onePerTurn(): <T>(work: () => T) => Promise<T> {
  const waiting: (() => void)[] = [];
  const runNext = () => {
    waiting.shift()?.();
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
