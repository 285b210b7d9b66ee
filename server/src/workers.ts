// Which handler runs each job; started in every process that runs the worker (WORKER=on or only).
import { sendAccountLink, sendAccountLinkJob } from "./accounts";
import { archiveAndDelete, deletedAccountArchiveJob } from "./admin/index";
import type { AppContext } from "./context";
import { chatClipTurns, generateMedia, generateMediaJob } from "./conversation";
import { vectorsAvailable } from "./db/vectors";
import { makeExport, makeFilm, storyExportJob, storyFilmJob } from "./exports";
import { runRestore, storyRestoreJob } from "./interop";
import type { JobQueue } from "./jobs/queue";
import { accountExportJob, makeAccountExport } from "./leave";
import type { Mailer } from "./mail/mailer";
import { clipJob, makeClip } from "./media";
import { embedMessages, embedMessagesJob } from "./recall";
import { storySummaryJob, writeStorySummary } from "./stories";
import { livingLoreJob, updateLivingLore } from "./story-cards";
import { makeBatch, studioBatchJob } from "./studio";
import { narrateMessage, narrateMessageJob } from "./voice";

export type WorkerDeps = AppContext & { mailer: Mailer };

export async function startWorkers(jobs: JobQueue, deps: WorkerDeps): Promise<void> {
  await jobs.work(sendAccountLinkJob, ({ purpose, email }) => sendAccountLink(deps, purpose, email));
  await jobs.work(generateMediaJob, (payload, attempt) => generateMedia(deps, payload, attempt));
  await jobs.work(storyFilmJob, (payload, attempt) => makeFilm(deps, payload, attempt));
  await jobs.work(storyExportJob, (payload, attempt) => makeExport(deps, payload, attempt));
  await jobs.work(accountExportJob, (payload, attempt) => makeAccountExport(deps, payload, attempt));
  await jobs.work(deletedAccountArchiveJob, (payload, attempt) => archiveAndDelete(deps, payload, attempt));
  await jobs.work(storySummaryJob, (payload) => writeStorySummary(deps, payload));
  await jobs.work(livingLoreJob, (payload) => updateLivingLore(deps, payload));
  await jobs.work(studioBatchJob, (payload, attempt) => makeBatch(deps, payload, attempt));
  await jobs.work(clipJob, (payload, attempt) =>
    makeClip({ ...deps, clipTurns: chatClipTurns }, payload, attempt),
  );
  await jobs.work(narrateMessageJob, (payload, attempt) => narrateMessage(deps, payload, attempt));
  await jobs.work(embedMessagesJob, (payload) => embedMessages(deps, payload));
  await jobs.work(storyRestoreJob, (payload, attempt) => runRestore(deps, payload, attempt));
  if (deps.providers.embeddings && !vectorsAvailable(deps.db)) {
    deps.log.warn(
      { embeddingsProvider: deps.providers.embeddings.name },
      "EMBEDDINGS_PROVIDER is set but this PostgreSQL server has no pgvector extension: recall ranks by text only (install pgvector to rank by meaning)",
    );
  }
}
