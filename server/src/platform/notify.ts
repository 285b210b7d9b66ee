// Cross-process signals: PostgreSQL LISTEN/NOTIFY when the app runs on PostgreSQL (every HTTP and worker
// process on one database hears every signal), an in-process emitter on embedded PGlite (one process).
// Payloads are small and carry ids only: a receiver reads anything secret or signed from the database itself.
import { EventEmitter } from "node:events";
import pg from "pg";

export type Notifier = {
  /**
   * Sends `payload` (at most ~7,900 bytes: PostgreSQL's NOTIFY limit) to every subscriber of `channel`.
   * A `pg_notify(channel, payload)` in SQL reaches the same subscribers, when its transaction commits.
   */
  publish: (channel: string, payload: string) => Promise<void>;
  /** Calls `handler` for every payload on `channel`, from any process; returns the unsubscribe. */
  subscribe: (channel: string, handler: (payload: string) => void) => () => void;
  /**
   * PostgreSQL: `handler(true)` once the listening connection LISTENs on every channel subscribed before it
   * connected, `handler(false)` when it drops (signals sent until it is back are lost). Returns the unwatch.
   */
  watchListening?: (handler: (listening: boolean) => void) => () => void;
  close: () => Promise<void>;
};

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  // Channel names go into LISTEN unquoted-safe form; only our own constants are ever used.
  if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid notify channel: ${channel}`);
}

/** Hears `NOTIFY` sent with SQL on the embedded database itself (PGlite's own listen). */
export type SqlListen = (channel: string, handler: (payload: string) => void) => Promise<unknown>;

/**
 * One process: an emitter. Delivery is asynchronous, as it is through PostgreSQL. With `sqlListen`, a
 * `pg_notify` sent by SQL (inside a transaction: delivered at its commit) reaches the subscribers too, as it
 * does on PostgreSQL.
 */
export function createLocalNotifier(sqlListen?: SqlListen): Notifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const heard = new Set<string>();
  return {
    publish: async (channel, payload) => {
      checkChannel(channel);
      queueMicrotask(() => emitter.emit(channel, payload));
    },
    subscribe: (channel, handler) => {
      checkChannel(channel);
      emitter.on(channel, handler);
      if (sqlListen && !heard.has(channel)) {
        heard.add(channel);
        void sqlListen(channel, (payload) => emitter.emit(channel, payload)).catch(() =>
          heard.delete(channel),
        );
      }
      return () => emitter.off(channel, handler);
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

/**
 * PostgreSQL: one dedicated connection LISTENs on every channel with a subscriber (reconnecting after a
 * drop, then re-LISTENing); NOTIFY goes through the pool. A signal sent while the listener is reconnecting
 * is lost, so consumers that must not miss one (the event stream) also replay from the database.
 */
export function createPostgresNotifier(url: string, pool: pg.Pool): Notifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  // Its own emitter: channel names are arbitrary strings on the other one.
  const state = new EventEmitter();
  state.setMaxListeners(0);
  const channels = new Set<string>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client | undefined> | undefined;
  let listens: Promise<unknown> = Promise.resolve();
  let closed = false;

  const connect = (): Promise<pg.Client | undefined> => {
    connecting ??= (async () => {
      while (!closed) {
        const next = new pg.Client({ connectionString: url });
        try {
          await next.connect();
          next.on("notification", (message) => emitter.emit(message.channel, message.payload ?? ""));
          const lost = () => {
            if (client === next) {
              client = undefined;
              connecting = undefined;
              state.emit("listening", false);
              next.end().catch(() => {});
              if (!closed && channels.size > 0) void connect();
            }
          };
          next.on("error", lost);
          next.on("end", lost);
          for (const channel of channels) await next.query(`LISTEN ${channel}`);
          if (closed) {
            await next.end().catch(() => {});
            return undefined;
          }
          client = next;
          state.emit("listening", true);
          return next;
        } catch {
          await next.end().catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
      return undefined;
    })();
    return connecting;
  };

  return {
    publish: async (channel, payload) => {
      checkChannel(channel);
      await pool.query("select pg_notify($1, $2)", [channel, payload]);
    },
    subscribe: (channel, handler) => {
      checkChannel(channel);
      emitter.on(channel, handler);
      if (!channels.has(channel)) {
        channels.add(channel);
        // One LISTEN at a time: pg deprecates a second query on a client that is still running one.
        listens = listens
          .then(() => connect())
          .then((listener) => listener?.query(`LISTEN ${channel}`))
          .catch(() => {});
      }
      return () => emitter.off(channel, handler);
    },
    watchListening: (handler) => {
      state.on("listening", handler);
      if (client) queueMicrotask(() => handler(client !== undefined));
      return () => state.off("listening", handler);
    },
    close: async () => {
      closed = true;
      if (client) state.emit("listening", false);
      state.removeAllListeners();
      emitter.removeAllListeners();
      await connecting?.catch(() => undefined);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
