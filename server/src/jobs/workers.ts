// Which handler runs each job; started in every process that runs the worker (WORKER=on or only).
import { sendAccountLinkJob } from "../accounts/jobs";
import { type AccountsContext, sendAccountLink } from "../accounts/service";
import type { Mailer } from "../mail/mailer";
import type { JobQueue } from "./queue";

export type WorkerDeps = AccountsContext & { mailer: Mailer };

export async function startWorkers(jobs: JobQueue, deps: WorkerDeps): Promise<void> {
  await jobs.work(sendAccountLinkJob, ({ purpose, email }) => sendAccountLink(deps, purpose, email));
}
