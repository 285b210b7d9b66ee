// Clips that go on (issue 45 item 4, decision 0160): POST /api/media/{id}/animate makes a clip from a picture
// (with a camera move and, optionally, a picture it ends on), POST /api/media/{id}/extend makes a clip 5 seconds
// longer; both answer 202 with a clip job at once (charged), and GET /api/media/clips/{job_id} says how it is
// going until it ends in a new gallery item or a refund. Following a job stops when its signal aborts (the
// dialog was closed): the job goes on on the server and its clip still lands in the Gallery.
import type { GalleryItem } from "@storyverse/contract/media";
import {
  type AnimateRequest,
  type ClipJob,
  type ClipStarted,
  clipJobSchema,
  clipStartedSchema,
  type ExtendRequest,
} from "@storyverse/contract/media-clip";
import { useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";
import { serverConfigQueryOptions } from "../conversation/api/server-config";

/** How often a clip job is asked about while it is pending. */
export const CLIP_POLL_MS = 2_000;
/** A poll that fails (a dropped connection) is tried again this many times in a row before it is reported. */
const POLL_RETRIES = 3;

export function startAnimate(
  id: string,
  request: AnimateRequest,
  signal?: AbortSignal,
): Promise<ClipStarted> {
  return apiRequest(`/api/media/${id}/animate`, {
    method: "POST",
    body: request,
    schema: clipStartedSchema,
    signal,
    timeoutMs: 30_000,
  });
}

export function startExtend(id: string, request: ExtendRequest, signal?: AbortSignal): Promise<ClipStarted> {
  return apiRequest(`/api/media/${id}/extend`, {
    method: "POST",
    body: request,
    schema: clipStartedSchema,
    signal,
    timeoutMs: 30_000,
  });
}

export function fetchClipJob(jobId: string, signal?: AbortSignal): Promise<ClipJob> {
  return apiRequest(`/api/media/clips/${encodeURIComponent(jobId)}`, {
    schema: clipJobSchema,
    signal,
    timeoutMs: 30_000,
  });
}

/** Waits `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}

/**
 * Asks about `job` every `pollMs` until it is no longer pending, telling `onUpdate` each answer; resolves with
 * the last one (still pending when `signal` aborted first: nothing more is asked after that).
 */
export async function followClipJob(
  job: ClipJob,
  signal: AbortSignal,
  onUpdate: (job: ClipJob) => void,
  pollMs = CLIP_POLL_MS,
): Promise<ClipJob> {
  let current = job;
  let failures = 0;
  while (current.status === "pending") {
    await pause(pollMs, signal);
    if (signal.aborted) return current;
    try {
      current = await fetchClipJob(current.job_id, signal);
      failures = 0;
    } catch (error) {
      if (signal.aborted) return current;
      failures += 1;
      if (failures > POLL_RETRIES) throw error;
      continue;
    }
    if (signal.aborted) return current;
    onUpdate(current);
  }
  return current;
}

/**
 * A clip's length in seconds as the server recorded it (decision 0160), or null when it did not say (older
 * clips, or a picture).
 */
export function clipSeconds(item: GalleryItem): number | null {
  const seconds = item.duration_seconds;
  return typeof seconds === "number" && Number.isFinite(seconds) ? seconds : null;
}

/** Whether the server makes clips (its video service is on); false until it has said, or while not enabled. */
export function useClipsEnabled(enabled = true): boolean {
  const config = useQuery({ ...serverConfigQueryOptions(), enabled });
  return config.data?.capabilities.includes("video") ?? false;
}
