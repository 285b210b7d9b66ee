// Answers of hot reads kept in memory by the module that owns them, each under a key and an owner (a user
// id), dropped by that module's writes (`invalidate`) and by the cross-process change signal of the tables
// the answer reads. Decision 0117 says why and how; in short:
// - A module declares its cache once (`defineReadCache`: a name and the tables its answer reads), reads
//   through it (`read`) outside transactions, and calls `invalidate(q, owner)` after each statement that
//   changes what the answer shows. A read inside a transaction never uses or fills the cache.
// - Every owner has a generation, bumped by each invalidation; a read stores its answer only if the
//   generation it started under is still current, so a read that began before a write is never kept.
// - On PostgreSQL a write made inside a transaction is not committed when `invalidate` runs: the owner stays
//   "pending" (nothing of it is kept) until every connection that was out when it was marked has gone back
//   to the pool, and is invalidated again then (`afterRelease`). So a process always reads its own writes.
// - Other processes' writes (and an operator's psql, and cascades) arrive as `tableChanged(table)`: every
//   cache that reads the table forgets everything. On PostgreSQL nothing is kept longer than `maxAgeMs`,
//   and the caches are off (and empty) while the change signals cannot be heard (`setEnabled`).
// - A hit returns a copy, so a caller may change what it gets.
// - An owner may be a part of a user (`partOf(user, story)`, decision 0134): invalidating the part leaves the
//   user's other parts kept, and invalidating the user drops every part of it.
// The caches belong to one database handle: a Drizzle database and every transaction in it share the
// same `_.tableNamesMap` (made once per `drizzle()` call), which is the key here. A handle that was never
// given caches (`attachReadCaches`) reads straight from the database.
import { PgTransaction } from "drizzle-orm/pg-core";

/** The part of a Drizzle handle (database or transaction) that names its database. */
type Handle = { readonly _: { readonly tableNamesMap: object } };

type Entry = { owner: string; stamp: number; at: number; value: unknown };

class Store {
  readonly entries = new Map<string, Entry>();
  /** Generations: each invalidation takes the next value of one counter that only grows. */
  readonly owners = new Map<string, number>();
  /** Set by `clear`: every owner's generation is at least this. */
  floor = 0;
  counter = 0;
  readonly flights = new Map<string, { stamp: number; answer: Promise<unknown> }>();
  /** Owners written inside a transaction that has not ended yet: nothing of theirs is kept meanwhile. */
  readonly pending = new Map<string, number>();
  readonly stats = { hits: 0, misses: 0, shared: 0 };

  constructor(readonly maxEntries: number) {}

  stamp(owner: string): number {
    const whole = wholeOf(owner);
    const part = this.owners.get(owner) ?? 0;
    return Math.max(part, whole === owner ? 0 : (this.owners.get(whole) ?? 0), this.floor);
  }

  /** Nothing of `owner` is kept while it, or the whole it is a part of, has a write not yet committed. */
  isPending(owner: string): boolean {
    return this.pending.has(owner) || this.pending.has(wholeOf(owner)) || this.pending.has(EVERYONE);
  }

  invalidate(owner: string): void {
    this.counter += 1;
    this.owners.set(owner, this.counter);
    if (this.owners.size > 100_000) this.clear();
  }

  clear(): void {
    this.counter += 1;
    this.floor = this.counter;
    this.owners.clear();
    this.entries.clear();
  }
}

export type ReadCaches = {
  /** PostgreSQL: off until the change signals are heard; turning off drops everything kept. */
  setEnabled: (on: boolean) => void;
  readonly enabled: boolean;
  /**
   * A table changed (the cross-process signal): every cache whose answers read it forgets everything, or, when
   * the signal names the user and part it changed, what the caches keep of that part (the caches that keep the
   * table's answers per part, `perPart`) or of that user (the others).
   */
  tableChanged: (table: string, changed?: { user: string; part: string }) => void;
  /** PostgreSQL: a pool connection was taken (`acquire`) or given back (`release`). */
  acquired: (connection: object) => void;
  released: (connection: object) => void;
  stats: (name: string) => Store["stats"] | undefined;
};

type Registry = ReadCaches & {
  store: (name: string) => Store;
  maxAgeMs: number;
  tracksConnections: boolean;
  mark: (name: string, owner: string) => void;
  /** Ends the marks whose writes are surely over (see `released`). */
  prune: () => void;
  hasMarks: () => boolean;
};

/**
 * A mark ends at the latest after this long: a connection held out longer (a long transaction, a held lock)
 * must not keep a user's answers from being kept for good. A write it made is then seen when its commit's
 * change signal arrives, within milliseconds.
 */
const PENDING_AT_MOST_MS = 1_000;

const registries = new WeakMap<object, Registry>();
const tablesOf = new Map<string, readonly string[]>();
const perPartOf = new Map<string, readonly string[]>();

/**
 * The read caches of one database. `maxAgeMs`: the longest an answer is served (PostgreSQL's bound on a
 * lost signal); `tracksConnections`: writes inside transactions stay pending until their connection returns
 * to the pool (call `acquired`/`released` from the pool's events).
 */
export function createReadCaches(
  options: { maxAgeMs?: number; enabled?: boolean; tracksConnections?: boolean } = {},
): ReadCaches {
  const stores = new Map<string, Store>();
  let enabled = options.enabled ?? true;
  // Marks made while connections were out: each is invalidated again when those have all come back.
  let sequence = 0;
  const out = new Map<object, number>();
  const marks: { seq: number; at: number; name: string; owner: string }[] = [];
  const store = (name: string) => {
    let found = stores.get(name);
    if (!found) {
      found = new Store(2_000);
      stores.set(name, found);
    }
    return found;
  };
  const registry: Registry = {
    maxAgeMs: options.maxAgeMs ?? Number.POSITIVE_INFINITY,
    tracksConnections: options.tracksConnections ?? false,
    store,
    get enabled() {
      return enabled;
    },
    setEnabled(on) {
      if (on === enabled) return;
      for (const found of stores.values()) found.clear();
      enabled = on;
    },
    tableChanged(table, changed) {
      for (const [name, found] of stores) {
        if (!tablesOf.get(name)?.includes(table)) continue;
        if (!changed) found.clear();
        else if (perPartOf.get(name)?.includes(table)) {
          found.invalidate(partOf(changed.user, changed.part));
          found.invalidate(partOf(changed.user, ACROSS));
        } else found.invalidate(changed.user);
      }
    },
    acquired(connection) {
      out.set(connection, sequence);
    },
    released(connection) {
      const since = out.get(connection);
      out.delete(connection);
      if (since === undefined) return;
      // Whatever this connection's transaction wrote is committed (or rolled back) now.
      for (const mark of marks) {
        if (mark.seq <= since) continue;
        if (mark.owner === EVERYONE) store(mark.name).clear();
        else store(mark.name).invalidate(mark.owner);
      }
      registry.prune();
    },
    prune() {
      // Marks older than every connection still out: the connections that were out then are all back.
      const oldest = Math.min(...out.values());
      const expired = performance.now() - PENDING_AT_MOST_MS;
      while (marks.length > 0 && (marks[0]!.seq <= oldest || marks[0]!.at < expired)) {
        const done = marks.shift()!;
        const kept = store(done.name);
        const count = (kept.pending.get(done.owner) ?? 1) - 1;
        if (count <= 0) kept.pending.delete(done.owner);
        else kept.pending.set(done.owner, count);
      }
    },
    hasMarks: () => marks.length > 0,
    mark(name, owner) {
      if (!registry.tracksConnections || out.size === 0) return;
      sequence += 1;
      marks.push({ seq: sequence, at: performance.now(), name, owner });
      const kept = store(name);
      kept.pending.set(owner, (kept.pending.get(owner) ?? 0) + 1);
    },
    stats: (name) => stores.get(name)?.stats,
  };
  return registry;
}

/** Gives `db` (and every transaction in it) `caches`. */
export function attachReadCaches(db: Handle, caches: ReadCaches): void {
  registries.set(db._.tableNamesMap, caches as Registry);
}

/**
 * A deep copy of a kept answer (arrays, plain objects, dates and primitives; anything else through
 * structuredClone): quicker than structuredClone on small rows (docs/benchmarks.md).
 */
export function copyAnswer<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyAnswer) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyAnswer((value as Record<string, unknown>)[key]);
  return copy as T;
}

export type ReadCache<V> = {
  /** The answer for `key` (owned by `owner`): kept, or loaded by `load` and kept if nothing wrote meanwhile. */
  read: (q: Handle, key: string, owner: string, load: () => Promise<V>) => Promise<V>;
  /** After a statement that changed what `owner`'s answers show. */
  invalidate: (q: Handle, owner: string) => void;
  /** After a statement whose owners are not known where it runs: every answer of this cache. */
  invalidateAll: (q: Handle) => void;
};

/** The owner that stands for all of them (`invalidateAll`). */
const EVERYONE = "\u0000all";

const PART = "/";

/**
 * An owner that is one part of `whole` (a story of a user): its answers are dropped by invalidating the part
 * or the whole; the whole's other parts are kept when only this part is invalidated.
 */
export const partOf = (whole: string, part: string): string => `${whole}${PART}${part}`;

const ACROSS = "*";

/** The owner of a whole's answers that read several of its parts: dropped with any part. */
export const acrossParts = (whole: string): string => partOf(whole, ACROSS);

/** The whole an owner is a part of (itself when it is no part). */
function wholeOf(owner: string): string {
  const at = owner.indexOf(PART);
  return at < 0 ? owner : owner.slice(0, at);
}

/**
 * Declares a cache: `name` unique in the app, `tables` every table its answers read. `perPart`: the tables
 * whose answers it keeps per part of a user, with the part the table's change signal names (a story:
 * `partOf(user, storyId)`, its answers over all parts under `acrossParts(user)`).
 */
export function defineReadCache<V>(
  name: string,
  tables: readonly string[],
  options: { perPart?: readonly string[] } = {},
): ReadCache<V> {
  if (tablesOf.has(name)) throw new Error(`read cache ${name} is declared twice`);
  tablesOf.set(name, tables);
  perPartOf.set(name, options.perPart ?? []);
  return {
    async read(q, key, owner, load) {
      const registry = registries.get(q._.tableNamesMap);
      if (!registry?.enabled || q instanceof PgTransaction) return load();
      const store = registry.store(name);
      const stamp = store.stamp(owner);
      const kept = store.entries.get(key);
      if (kept && kept.stamp === stamp && performance.now() - kept.at <= registry.maxAgeMs) {
        store.stats.hits += 1;
        return copyAnswer(kept.value) as V;
      }
      // Requests that miss together share one query, if it began under the same generation.
      const flight = store.flights.get(key);
      if (flight && flight.stamp === stamp) {
        store.stats.shared += 1;
        return copyAnswer(await flight.answer) as V;
      }
      store.stats.misses += 1;
      const at = performance.now();
      const running = load();
      const answer = running.then(copyAnswer);
      answer.catch(() => {});
      store.flights.set(key, { stamp, answer });
      let value: V;
      try {
        value = await running;
      } finally {
        if (store.flights.get(key)?.answer === answer) store.flights.delete(key);
      }
      if (registry.hasMarks()) registry.prune();
      if (registry.enabled && store.stamp(owner) === stamp && !store.isPending(owner)) {
        store.entries.delete(key);
        store.entries.set(key, { owner, stamp, at, value: await answer });
        if (store.entries.size > store.maxEntries)
          store.entries.delete(store.entries.keys().next().value as string);
      }
      return value;
    },
    invalidate(q, owner) {
      const registry = registries.get(q._.tableNamesMap);
      if (!registry) return;
      registry.store(name).invalidate(owner);
      registry.mark(name, owner);
    },
    invalidateAll(q) {
      const registry = registries.get(q._.tableNamesMap);
      if (!registry) return;
      registry.store(name).clear();
      registry.mark(name, EVERYONE);
    },
  };
}
