import { excludeSystemEvents, type AllStreamResolvedEvent } from '@eventstore/db-client';
import type { EsdbClient, EsdbSubscription } from './esdb-client';
import { isSuiteEvent, positionFromEsdb, readPositionFrom } from './esdb-mapping';

/** How long after a dropped subscription a new one starts. */
export const RESUBSCRIBE_MS = 1000;
/** How often the head is read as well, in case a subscription stalls without being dropped. */
export const FALLBACK_POLL_MS = 5000;

interface Follower {
  listener: (head: number) => void;
  notified: number;
  subscription: EsdbSubscription | null;
  resubscribe: NodeJS.Timeout | null;
  stopped: boolean;
}

export interface EsdbNotifications {
  /** See `EventStore.onAppended`. */
  follow(listener: (head: number) => void, after: number | undefined): () => void;
  /** A commit of this process: every follower hears of it at once. */
  committed(position: number): void;
  close(): Promise<void>;
}

/**
 * `onAppended` on EventStoreDB. Each follower has a subscription to `$all` started from the position
 * it asked to follow from (the server delivers what was committed after it, then each new commit),
 * restarted after a drop from the last position the follower heard of, so nothing committed meanwhile
 * goes unnoticed; the head is also read every `FALLBACK_POLL_MS`, for a subscription that stalls
 * without being dropped. The follower hears each position once, in increasing order.
 */
export function esdbNotifications(
  client: EsdbClient,
  headPosition: () => Promise<number>,
): EsdbNotifications {
  const followers = new Set<Follower>();
  let poll: NodeJS.Timeout | null = null;

  function notify(follower: Follower, position: number): void {
    if (follower.stopped || position <= follower.notified) return;
    follower.notified = position;
    follower.listener(position);
  }

  function subscribe(follower: Follower): void {
    const current = client.subscribeToAll({
      fromPosition: readPositionFrom(follower.notified),
      filter: excludeSystemEvents(),
    });
    follower.subscription = current;
    const restart = () => {
      if (follower.subscription !== current || follower.stopped) return;
      follower.subscription = null;
      follower.resubscribe = setTimeout(() => {
        follower.resubscribe = null;
        if (!follower.stopped) subscribe(follower);
      }, RESUBSCRIBE_MS);
    };
    current.on('data', ({ event }: AllStreamResolvedEvent) => {
      if (event && isSuiteEvent(event.streamId, event.type))
        notify(follower, positionFromEsdb(event.position));
    });
    current.on('error', restart);
    current.on('close', restart);
  }

  function stop(follower: Follower): Promise<void> {
    follower.stopped = true;
    followers.delete(follower);
    if (follower.resubscribe) clearTimeout(follower.resubscribe);
    if (followers.size === 0 && poll) {
      clearInterval(poll);
      poll = null;
    }
    const current = follower.subscription;
    follower.subscription = null;
    return current ? current.unsubscribe() : Promise.resolve();
  }

  const pollHead = () =>
    void headPosition().then(
      (head) => {
        for (const follower of followers) notify(follower, head);
      },
      () => undefined,
    );

  return {
    follow(listener, after) {
      const follower: Follower = {
        listener,
        notified: 0,
        subscription: null,
        resubscribe: null,
        stopped: false,
      };
      followers.add(follower);
      poll ??= setInterval(pollHead, FALLBACK_POLL_MS);
      const start = after === undefined ? headPosition() : Promise.resolve(after);
      start.then(
        (from) => {
          if (follower.stopped) return;
          follower.notified = Math.max(follower.notified, from);
          subscribe(follower);
        },
        () => {
          // The head could not be read: follow from the start of what the poll finds next.
          if (!follower.stopped) subscribe(follower);
        },
      );
      // Nobody waits for the cancelled subscription; a failure to cancel it changes nothing here.
      return () => void stop(follower).catch(() => undefined);
    },
    committed(position) {
      for (const follower of followers) notify(follower, position);
    },
    async close() {
      await Promise.all([...followers].map(stop));
    },
  };
}
