// Everything a service may need, built once at start (server.ts) or per test (test/app.ts).
// Services take the parts they use (Pick<AppContext, ...>), so their dependencies stay visible.
import type { Config } from "./config";
import type { Queryable } from "./db/client";
import type { JobQueue } from "./jobs/queue";
import type { MediaStorage } from "./media/storage/types";
import type { Clock } from "./platform/clock";
import type { Notifier } from "./platform/notify";
import type { Providers } from "./providers/types";

export type Logger = {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
  error: (obj: object, msg?: string) => void;
};

export type AppContext = {
  config: Config;
  db: Queryable;
  clock: Clock;
  jobs: JobQueue;
  providers: Providers;
  storage: MediaStorage;
  log: Logger;
  /** Cross-process signals (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite). */
  notify: Notifier;
};
