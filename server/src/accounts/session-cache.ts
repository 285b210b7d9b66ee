// A few seconds of memory for "this token belongs to this user", so polling and other hot authenticated
// reads skip the session query. Logout and password resets evict at once in this process; another API
// process may accept a revoked token for at most TTL_MS more (documented in docs/decisions.md).
import type { Clock } from "../platform/clock";

export const SESSION_CACHE_TTL_MS = 5_000;

export type CachedSession = { id: string; email: string; username: string };

export type SessionCache = {
  get: (tokenHash: string) => CachedSession | undefined;
  set: (tokenHash: string, user: CachedSession, sessionExpiresAt: Date) => void;
  evict: (tokenHash: string) => void;
  evictUser: (userId: string) => void;
};

export function createSessionCache(clock: Clock, maxEntries = 50_000): SessionCache {
  const entries = new Map<string, { user: CachedSession; freshUntil: number }>();
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
    set(tokenHash, user, sessionExpiresAt) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      const freshUntil = Math.min(clock.now().getTime() + SESSION_CACHE_TTL_MS, sessionExpiresAt.getTime());
      entries.set(tokenHash, { user, freshUntil });
    },
    evict(tokenHash) {
      entries.delete(tokenHash);
    },
    evictUser(userId) {
      for (const [hash, entry] of entries) if (entry.user.id === userId) entries.delete(hash);
    },
  };
}
