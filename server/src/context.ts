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
  /**
   * Refuses paid work that would pass an administrator's spending caps (admin/caps.ts), before anything is
   * charged. The root hands it in, so the credits module, which every paid path uses, imports no admin.
   */
  spendingCaps: SpendingCapsCheck;
  /**
   * What other modules keep of a story's branch, copied to a branch made from it and removed when the branch or
   * its story is deleted (cards and drafts, narrations, exports, share links). The root lists them, so the
   * stories module imports none of those modules.
   */
  storyBranchParts: readonly StoryBranchPart[];
};

type StoryBranchPartContext = Pick<AppContext, "db" | "clock" | "storage" | "log">;

/**
 * What one module keeps of a story's branch (decision 0171): copied when a branch is made from it, removed when it
 * is deleted.
 */
export type StoryBranchPart = {
  /** Inside the new branch's transaction: this module's rows of `fromBranchId` copied to `toBranchId`. */
  copy?(q: Queryable, fromBranchId: string, toBranchId: string, at: Date): Promise<void>;
  /**
   * Inside the deleting transaction, before the branch's own rows go: removes this module's rows that the
   * foreign key would not take, and answers the files to remove once the transaction commits. `emptied` is
   * set when the branch's row stays (a story's first branch, kept to hold the others), so the rows the
   * foreign key would have taken go here too.
   */
  remove(ctx: StoryBranchPartContext, userId: string, branchId: string, emptied: boolean): Promise<string[]>;
  /** After the commit: removes the files `remove` answered (a rolled-back delete keeps them); none, no files. */
  discard?(ctx: StoryBranchPartContext, keys: string[]): Promise<void>;
};

export type SpendingCapsCheck = (
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  costTenths: number,
) => Promise<void>;
