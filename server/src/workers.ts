// Which handler runs each job; started in every process that runs the worker (WORKER=on or only).
import { sendAccountLinkJob } from "./accounts/jobs";
import { sendAccountLink } from "./accounts/service";
import { archiveAndDelete, deletedAccountArchiveJob } from "./admin/archives";
import type { AppContext } from "./context";
import { chatClipTurns } from "./conversation/clip-turns";
import { generateMedia, generateMediaJob } from "./conversation/media-job";
import { vectorsAvailable } from "./db/vectors";
import { makeExport, storyExportJob } from "./exports/export-job";
import { makeFilm, storyFilmJob } from "./exports/film-job";
import { runRestore, storyRestoreJob } from "./interop/restore-job";
import type { JobQueue } from "./jobs/queue";
import { accountExportJob, makeAccountExport } from "./leave/export";
import type { Mailer } from "./mail/mailer";
import { clipJob, makeClip } from "./media/clip-job";
import { embedMessages, embedMessagesJob } from "./recall/embed-job";
import { storySummaryJob, writeStorySummary } from "./stories/summary";
import { livingLoreJob, updateLivingLore } from "./story-cards/living-lore";
import { makeBatch, studioBatchJob } from "./studio/batch-job";
import { narrateMessage, narrateMessageJob } from "./voice/narration-job";

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
