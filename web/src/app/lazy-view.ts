// Views other than the landing page load as separate chunks. A chunk that has not arrived within 120 s
// (the product's lazy-chunk time-out) gives up, so the error boundary can offer a reload instead of a
// spinner forever.
import { type ComponentType, type LazyExoticComponent, lazy } from "react";

export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkTimeoutError extends Error {
  constructor(ms: number) {
    super(`This screen took longer than ${Math.round(ms / 1000)} s to load.`);
    this.name = "ChunkTimeoutError";
  }
}

export function withTimeout<T>(load: () => Promise<T>, ms: number = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkTimeoutError(ms)), ms);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** React.lazy for a module's named component export, with the chunk time-out. */
export function lazyView<K extends string, M extends Record<K, ComponentType>>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<ComponentType> {
  return lazy(() => withTimeout(load).then((module) => ({ default: module[name] })));
}
