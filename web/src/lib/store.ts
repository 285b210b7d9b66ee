// The one small store the app's module-level state is kept in (connection, live stream, narration): a value
// with get, set and subscribe, read in React through useSyncExternalStore. A set that changes nothing
// (Object.is) tells no one.
import { useSyncExternalStore } from "react";

export interface Store<T> {
  get: () => T;
  /** A new value, or an update from the current one. */
  set: (next: T | ((current: T) => T)) => void;
  /** Calls `listener` after each change; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      const updated = typeof next === "function" ? (next as (current: T) => T)(value) : next;
      if (Object.is(updated, value)) return;
      value = updated;
      // A copy: a listener that unsubscribes (or subscribes another) while being told must not skip anyone.
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The store's value (or the part `select` picks), re-rendering when it changes. */
export function useStore<T>(store: Store<T>): T;
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S;
export function useStore<T, S>(store: Store<T>, select?: (value: T) => S): T | S {
  const read: () => T | S = select ? () => select(store.get()) : store.get;
  return useSyncExternalStore<T | S>(store.subscribe, read, read);
}
