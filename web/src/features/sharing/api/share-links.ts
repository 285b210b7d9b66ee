// The share-link calls: make (or replace), see again, revoke a story's link, and read a shared story signed out.

import {
  EXPORT_FAILED_MESSAGE,
  type ExportFormat,
  storyExportResponseSchema,
} from "@storyverse/contract/exports";
import { type FilmResponse, filmResponseSchema } from "@storyverse/contract/film";
import {
  type CreateShareRequest,
  type LiveShareResponse,
  liveShareResponseSchema,
  revokeShareResponseSchema,
  SHARED_NEWEST_PAGE_MESSAGES,
  type SharedStoryResponse,
  type ShareLinkResponse,
  sharedStoryResponseSchema,
  shareLinkResponseSchema,
} from "@storyverse/contract/sharing";
import { apiDownload, apiRequest } from "../../../lib/api-client";
import { ApiError } from "../../../lib/api-errors";

const sharePath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/share`;

export const shareLinkKey = (storyId: string) => ["stories", storyId, "share"] as const;

/**
 * The story's live link (to copy again), or its takedown by an administrator (decision 0150: `shared` false,
 * `taken_down` with the reason), or null when it has neither.
 */
export async function fetchShareLink(storyId: string): Promise<LiveShareResponse | null> {
  const answer = await apiRequest(sharePath(storyId), { schema: liveShareResponseSchema, timeoutMs: 30_000 });
  return answer.shared || answer.taken_down ? answer : null;
}

export function createShareLink(storyId: string, body: CreateShareRequest): Promise<ShareLinkResponse> {
  return apiRequest(sharePath(storyId), {
    method: "POST",
    body: body ?? {},
    schema: shareLinkResponseSchema,
    timeoutMs: 30_000,
  });
}

export async function revokeShareLink(storyId: string): Promise<void> {
  await apiRequest(sharePath(storyId), {
    method: "DELETE",
    schema: revokeShareResponseSchema,
    timeoutMs: 30_000,
  });
}

/**
 * A page of a shared story, signed out (decision 0138): the newest page (SHARED_NEWEST_PAGE_MESSAGES), or the
 * page before a cursor the link handed out.
 */
export function fetchSharedPage(
  token: string,
  position: { before?: string } = {},
  signal?: AbortSignal,
): Promise<SharedStoryResponse> {
  const query = new URLSearchParams(
    position.before ? { before: position.before } : { limit: String(SHARED_NEWEST_PAGE_MESSAGES) },
  );
  return apiRequest(`/api/shared/${encodeURIComponent(token)}?${query}`, {
    schema: sharedStoryResponseSchema,
    signal,
    timeoutMs: 60_000,
  });
}

export type { ExportFormat };

const exportsPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/exports`;
/** How often a running export is asked for its progress. */
const EXPORT_POLL_MS = 700;

/**
 * Makes the story's file in a job on the server (reporting its progress, 0 to 100, and the step it is on as it
 * goes), then downloads it: the browser saves it under the server's file name. An unchanged story's export is
 * answered with the one made already, at once. `narration` makes an EPUB a read-along book (the server reads
 * the narrator's words aloud as EPUB 3 Media Overlays). `signal` stops following it (the dialog was closed):
 * no more polls and no download; the job goes on on the server, and asking again reuses what it made.
 */
export async function downloadStoryExport(
  storyId: string,
  format: ExportFormat,
  onProgress: (progress: number, step: string | null) => void = () => {},
  narration = false,
  signal?: AbortSignal,
): Promise<void> {
  const started = await apiRequest(exportsPath(storyId), {
    method: "POST",
    body: narration ? { format, narration: true } : { format },
    schema: storyExportResponseSchema,
    timeoutMs: 30_000,
    signal,
  });
  let job = started.export;
  while (job.status === "queued" || job.status === "running") {
    onProgress(job.progress, job.step);
    await new Promise((resolve) => setTimeout(resolve, EXPORT_POLL_MS));
    if (signal?.aborted) return;
    job = (
      await apiRequest(`${exportsPath(storyId)}/${job.id}`, {
        schema: storyExportResponseSchema,
        timeoutMs: 30_000,
        signal,
      })
    ).export;
  }
  // The job's own reason is the server's words: shown (translated) as a failed call's detail would be.
  if (job.status === "failed") throw new ApiError(502, job.error ?? EXPORT_FAILED_MESSAGE, true);
  onProgress(100, null);
  if (signal?.aborted) return;
  const { blob, filename } = await apiDownload(`${exportsPath(storyId)}/${job.id}/file`, { signal });
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename ?? `story.${format === "md" ? "zip" : format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}

export const filmKey = (storyId: string) => ["stories", storyId, "film"] as const;

export function fetchFilm(storyId: string): Promise<FilmResponse> {
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/film`, {
    schema: filmResponseSchema,
    timeoutMs: 30_000,
  });
}

export function startFilm(storyId: string): Promise<FilmResponse> {
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/film`, {
    method: "POST",
    schema: filmResponseSchema,
    timeoutMs: 30_000,
  });
}
