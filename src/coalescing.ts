/** Work that catches up with something that keeps moving (the head of the log). */
export interface Coalesced {
  /** Runs the work, or, while it runs, makes it run once more: nothing that arrived meanwhile is missed. */
  (): Promise<void>;
  /** Resolves once no run is in progress. */
  settled(): Promise<void>;
}

/** One run at a time; calls during a run coalesce into a single further run. */
export function coalescing(work: () => Promise<void>): Coalesced {
  let running: Promise<void> | null = null;
  let again = false;
  const call = (() => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await work();
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }) as Coalesced;
  call.settled = async () => {
    await running?.catch(() => undefined);
  };
  return call;
}
