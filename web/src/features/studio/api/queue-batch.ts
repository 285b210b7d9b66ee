// POST /api/studio/generate-image with `Prefer: respond-async`: the batch is queued and charged, and the
// answer comes at once with its id (the images follow by event, or GET /api/studio/batches/{id}). A server
// that ignores the preference answers with the images themselves, which is read as the finished batch.
import {
  RESPOND_ASYNC,
  type StudioBatch,
  type StudioBatchAccepted,
  type StudioGenerateRequest,
  studioBatchAcceptedSchema,
  studioBatchSchema,
  studioGenerateResponseSchema,
} from "@storyverse/contract/studio";
import { apiRequest } from "../../../lib/api-client";

/** Queuing checks and stores the uploads before it answers: allow as long as an upload may take. */
const QUEUE_TIMEOUT_MS = 2 * 60_000;

export type QueuedOrDone =
  | { kind: "queued"; accepted: StudioBatchAccepted }
  | { kind: "done"; batch: StudioBatch; quota: StudioBatchAccepted["quota_info"] };

/** Either answer: queued (202), or the images at once from a server that does not queue. */
const answerSchema = {
  parse: (data: unknown) => {
    const accepted = studioBatchAcceptedSchema.safeParse(data);
    return accepted.success ? accepted.data : studioGenerateResponseSchema.parse(data);
  },
};

export async function queueImages(body: StudioGenerateRequest): Promise<QueuedOrDone> {
  const answer = await apiRequest("/api/studio/generate-image", {
    method: "POST",
    body,
    headers: { Prefer: RESPOND_ASYNC },
    schema: answerSchema,
    timeoutMs: QUEUE_TIMEOUT_MS,
  });
  if ("status" in answer) return { kind: "queued", accepted: answer };
  return {
    kind: "done",
    quota: answer.quota_info,
    batch: {
      message_id: answer.message_id,
      status: "completed",
      content: "",
      images: answer.images,
      items: answer.items,
      error: null,
    },
  };
}

/** GET /api/studio/batches/{id}: where a queued batch stands. */
export function fetchStudioBatch(batchId: string, signal?: AbortSignal): Promise<StudioBatch> {
  return apiRequest(`/api/studio/batches/${encodeURIComponent(batchId)}`, {
    schema: studioBatchSchema,
    signal,
    timeoutMs: 30_000,
  });
}
