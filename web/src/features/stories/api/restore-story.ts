// Restoring a whole-story backup (decision 0123), in the player's steps: POST /api/stories/restore uploads the
// archive (.zip, multipart field `file`) and answers what it holds (the preview: nothing restored yet); POST
// /api/stories/restore/{id}/confirm starts the restore as a job; GET /api/stories/restore/{id} is polled for its
// progress until it ends with the new story (and notes of what could not be brought back) or the reason it
// failed. Free.
import {
  type RestorePreview,
  type StoryRestore,
  storyRestoreResponseSchema,
} from "@storyverse/contract/interop";
import { useQueryClient } from "@tanstack/react-query";
import { formatBytes } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { apiRequest } from "../../../lib/api-client";
import { addNewStory, fileForm } from "./import-story";

/** The backup archives restore reads, for the file picker. */
export const BACKUP_FILE_TYPES = ".zip,application/zip";

/** A large archive (up to BACKUP_FILE_MAX_MB) on a slow line, then its JSON's checks. */
const UPLOAD_TIMEOUT_MS = 600_000;
/** How often a running restore is asked about. */
export const RESTORE_POLL_MS = 1_000;

export async function uploadBackup(file: File): Promise<StoryRestore> {
  const { restore } = await apiRequest("/api/stories/restore", {
    method: "POST",
    body: fileForm(file),
    schema: storyRestoreResponseSchema,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  return restore;
}

export async function confirmRestore(id: string): Promise<StoryRestore> {
  const { restore } = await apiRequest(`/api/stories/restore/${encodeURIComponent(id)}/confirm`, {
    method: "POST",
    schema: storyRestoreResponseSchema,
  });
  return restore;
}

export async function fetchRestore(id: string): Promise<StoryRestore> {
  const { restore } = await apiRequest(`/api/stories/restore/${encodeURIComponent(id)}`, {
    schema: storyRestoreResponseSchema,
  });
  return restore;
}

/** Polls a confirmed restore until it ends, reporting each answer. */
export async function waitForRestore(
  id: string,
  onProgress: (restore: StoryRestore) => void,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<StoryRestore> {
  for (;;) {
    const restore = await fetchRestore(id);
    onProgress(restore);
    if (restore.status === "completed" || restore.status === "failed") return restore;
    await wait(RESTORE_POLL_MS);
  }
}

/** What a backup holds, in words: "12 exchanges, 3 branches, 2 checkpoints, 41 pictures and clips (5.2 MB)" (no size when it stores no file). */
export function describePreview(preview: RestorePreview): string {
  const contents = [
    i18n.t("story-tools:archive.exchanges", { count: preview.exchanges }),
    i18n.t("story-tools:archive.branches", { count: preview.branches }),
    i18n.t("story-tools:archive.checkpoints", { count: preview.checkpoints }),
    i18n.t("story-tools:archive.media", { count: preview.media }),
  ].join(", ");
  return preview.bytes > 0
    ? i18n.t("story-tools:archive.withSize", { contents, size: formatBytes(preview.bytes) })
    : contents;
}

/** Puts a restored story at the top of the list the player sees. */
export function useAddRestoredStory() {
  const queryClient = useQueryClient();
  return (story: NonNullable<StoryRestore["story"]>) => addNewStory(queryClient, story);
}
