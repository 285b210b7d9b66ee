// A few seconds of memory for "this token belongs to this user", so polling and other hot authenticated
// reads skip the session query. A revocation (logout, password reset) evicts at once in the process that
// did it and is announced on SESSION_REVOKED_CHANNEL, so every other process evicts too, within the
// NOTIFY's delivery (milliseconds); a signal lost while a process's listener reconnects still ends at TTL_MS.
import type { Clock } from "../platform/clock";
import type { Notifier } from "../platform/notify";

export const SESSION_CACHE_TTL_MS = 5_000;

export const SESSION_REVOKED_CHANNEL = "session_revoked";

export type CachedSession = { id: string; email: string; username: string };

export type SessionCache = {
  get: (tokenHash: string) => CachedSession | undefined;
  /**
   * Remembers a session read from the database. `readAt` is `generation()` taken before that read: if any
   * revocation arrived since, the read may predate it and is not cached.
   */
  set: (tokenHash: string, user: CachedSession, sessionExpiresAt: Date, readAt: number) => void;
  generation: () => number;
  /**
   * Lookups of one token that start together share one database read: when an entry expires under load,
   * every request waiting with that token would otherwise query at once. Only a lookup begun under the
   * current generation is shared, so none started before a revocation is handed to a later request.
   */
  share: <T>(tokenHash: string, lookup: () => Promise<T>) => Promise<T>;
  evict: (tokenHash: string) => void;
  evictUser: (userId: string) => void;
};

export function createSessionCache(clock: Clock, maxEntries = 50_000): SessionCache {
  const entries = new Map<string, { user: CachedSession; freshUntil: number }>();
  const lookups = new Map<string, { generation: number; answer: Promise<unknown> }>();
  let generation = 0;
  return {
    get(tokenHash) {
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (entry.freshUntil <= clock.now().getTime()) {
        entries.delete(tokenHash);
        return undefined;
      }
      return entry.user;
    },
    set(tokenHash, user, sessionExpiresAt, readAt) {
      if (readAt !== generation) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      const freshUntil = Math.min(clock.now().getTime() + SESSION_CACHE_TTL_MS, sessionExpiresAt.getTime());
      entries.set(tokenHash, { user, freshUntil });
    },
    generation: () => generation,
    share<T>(tokenHash: string, lookup: () => Promise<T>): Promise<T> {
      const running = lookups.get(tokenHash);
      if (running && running.generation === generation) return running.answer as Promise<T>;
      const answer = lookup().finally(() => {
        if (lookups.get(tokenHash)?.answer === answer) lookups.delete(tokenHash);
      });
      lookups.set(tokenHash, { generation, answer });
      return answer;
    },
    evict(tokenHash) {
      generation += 1;
      entries.delete(tokenHash);
    },
    evictUser(userId) {
      generation += 1;
      for (const [hash, entry] of entries) if (entry.user.id === userId) entries.delete(hash);
    },
  };
}

/** What a revocation announces: one session (by its token's hash) or every session of a user. */
export type Revocation = { tokenHash: string } | { userId: string };

export function announceRevocation(notify: Pick<Notifier, "publish">, revocation: Revocation) {
  return notify.publish(SESSION_REVOKED_CHANNEL, JSON.stringify(revocation));
}

/** Evicts from this process's cache every revocation announced by any process; returns the unsubscribe. */
export function followRevocations(notify: Pick<Notifier, "subscribe">, cache: SessionCache): () => void {
  return notify.subscribe(SESSION_REVOKED_CHANNEL, (payload) => {
    let revocation: Partial<Record<"tokenHash" | "userId", unknown>>;
    try {
      revocation = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof revocation.tokenHash === "string") cache.evict(revocation.tokenHash);
    if (typeof revocation.userId === "string") cache.evictUser(revocation.userId);
  });
}
