// ComfyUI's HTTP API as the adapters use it (decision 0156): upload a picture (POST /upload/image), queue a
// filled workflow (POST /prompt {prompt, client_id} -> {prompt_id}), read its entry in the history
// (GET /history/{prompt_id}: nothing while queued or running; outputs and a status once done), fetch an
// output (GET /view?filename=&subfolder=&type=), and take a prompt we gave up on off the queue
// (POST /queue {delete}). Waiting polls the history; the websocket is not needed for that.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import {
  parseAnswer,
  requestJson,
  requestMediaFile,
  sanitizeVendorMessage,
  timeoutError,
  userMessages,
  type VendorContext,
} from "../http";
import { type MediaFile, ProviderError } from "../types";
import type { ComfyWorkflow } from "./workflows";

export type ComfySettings = Omit<VendorContext, "vendor"> & {
  /** Pause between reads of a prompt's history; tests shorten it. */
  pollIntervalMs?: number;
};

export type ComfyContext = VendorContext & { clientId: string; pollIntervalMs: number };

export function comfyContext(settings: ComfySettings): ComfyContext {
  return {
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    vendor: "comfyui",
    // One id per process: ComfyUI reports progress to it over its websocket, which we do not open.
    clientId: randomUUID(),
    pollIntervalMs: settings.pollIntervalMs ?? 1000,
  };
}

/** A file ComfyUI wrote: where /view finds it. */
export type ComfyFile = { filename: string; subfolder: string; type: string };

const uploadedSchema = z.object({ name: z.string().min(1), subfolder: z.string().nullish() });
const queuedSchema = z.object({ prompt_id: z.string().min(1) });
const fileSchema = z.object({
  filename: z.string().min(1),
  subfolder: z.string().nullish(),
  type: z.string().nullish(),
});
const entrySchema = z.object({
  outputs: z.record(z.string(), z.record(z.string(), z.unknown())).nullish(),
  status: z
    .object({
      status_str: z.string().nullish(),
      completed: z.boolean().nullish(),
      messages: z.array(z.array(z.unknown())).nullish(),
    })
    .nullish(),
});
type HistoryEntry = z.infer<typeof entrySchema>;

/** The time left before `deadlineAt`, as a request's own time limit (at least a moment). */
const remaining = (deadlineAt: number) => Math.max(1, deadlineAt - Date.now());

/** Uploads a picture to ComfyUI's input folder; answers the name a LoadImage node takes. */
export async function uploadImage(
  ctx: ComfyContext,
  data: Buffer,
  options: { deadlineAt: number; signal?: AbortSignal | undefined },
): Promise<string> {
  const form = new FormData();
  form.append(
    "image",
    new Blob([new Uint8Array(data)], { type: "image/png" }),
    `storyverse-${randomUUID()}.png`,
  );
  form.append("type", "input");
  form.append("overwrite", "true");
  const answer = await requestJson(ctx, {
    method: "POST",
    path: "/upload/image",
    body: form,
    signal: options.signal,
    timeoutMs: remaining(options.deadlineAt),
  });
  const { name, subfolder } = parseAnswer(uploadedSchema, answer, ctx, "upload");
  return subfolder ? `${subfolder}/${name}` : name;
}

/**
 * Queues a filled workflow; answers its prompt id. ComfyUI refuses a workflow it cannot run (a node it does
 * not have, a model file that is not there) with a 400: the operator's to fix, not the player's.
 */
export async function queuePrompt(
  ctx: ComfyContext,
  workflow: ComfyWorkflow,
  options: { deadlineAt: number; signal?: AbortSignal | undefined },
): Promise<string> {
  try {
    const answer = await requestJson(ctx, {
      method: "POST",
      path: "/prompt",
      body: { prompt: workflow, client_id: ctx.clientId },
      signal: options.signal,
      timeoutMs: remaining(options.deadlineAt),
    });
    return parseAnswer(queuedSchema, answer, ctx, "queued prompt").prompt_id;
  } catch (error) {
    if (error instanceof ProviderError && / HTTP 400\b/.test(error.internal)) {
      throw new ProviderError(userMessages.misconfigured, false, error.internal);
    }
    throw error;
  }
}

/** Takes a prompt off the queue (one that is already running finishes on its own). Never throws. */
export async function dropFromQueue(ctx: ComfyContext, promptId: string): Promise<void> {
  await requestJson(ctx, { method: "POST", path: "/queue", body: { delete: [promptId] } }).catch(
    () => undefined,
  );
}

/** The prompt's history entry, or undefined while it is queued or running. */
async function readHistory(
  ctx: ComfyContext,
  promptId: string,
  options: { deadlineAt: number; signal?: AbortSignal | undefined },
): Promise<HistoryEntry | undefined> {
  const answer = await requestJson(ctx, {
    method: "GET",
    path: `/history/${encodeURIComponent(promptId)}`,
    signal: options.signal,
    timeoutMs: remaining(options.deadlineAt),
  });
  const entries = parseAnswer(z.record(z.string(), z.unknown()), answer, ctx, "history");
  const entry = entries[promptId];
  return entry === undefined ? undefined : parseAnswer(entrySchema, entry, ctx, "history entry");
}

/** Every file a finished prompt's output nodes list, in node order ("output" files before previews). */
function outputFiles(entry: HistoryEntry): ComfyFile[] {
  const files: ComfyFile[] = [];
  const nodes = Object.entries(entry.outputs ?? {}).sort(
    ([a], [b]) => Number(a) - Number(b) || a.localeCompare(b),
  );
  for (const [, output] of nodes) {
    // SaveImage lists "images"; SaveVideo lists its clip under "images" too, video helper nodes under "gifs".
    for (const key of ["images", "videos", "gifs"]) {
      const listed = output[key];
      if (!Array.isArray(listed)) continue;
      for (const item of listed) {
        const file = fileSchema.safeParse(item);
        if (file.success) {
          files.push({
            filename: file.data.filename,
            subfolder: file.data.subfolder ?? "",
            type: file.data.type ?? "output",
          });
        }
      }
    }
  }
  return [
    ...files.filter((file) => file.type === "output"),
    ...files.filter((file) => file.type !== "output"),
  ];
}

/** What a failed prompt's execution_error says, for the player (cleaned) and the log. */
function failureOf(ctx: ComfyContext, entry: HistoryEntry): { reason: string; internal: string } {
  const messages = entry.status?.messages ?? [];
  for (const [name, data] of messages) {
    if (name === "execution_interrupted") return { reason: "it was interrupted", internal: "interrupted" };
    if (name !== "execution_error" || typeof data !== "object" || data === null) continue;
    const error = data as { exception_message?: unknown; exception_type?: unknown; node_type?: unknown };
    const text = typeof error.exception_message === "string" ? error.exception_message.trim() : "";
    return {
      reason: text ? sanitizeVendorMessage(text, ctx) : "",
      internal: `${String(error.node_type ?? "node")} ${String(error.exception_type ?? "error")}: ${sanitizeVendorMessage(text, ctx, 500)}`,
    };
  }
  return { reason: "", internal: entry.status?.status_str ?? "no outputs" };
}

export type Finished = { status: "done"; files: ComfyFile[] } | { status: "failed"; error: ProviderError };

/** A finished prompt's outputs or failure; undefined while it is queued or running. */
export async function readOutcome(
  ctx: ComfyContext,
  promptId: string,
  what: "image" | "video",
  options: { deadlineAt: number; signal?: AbortSignal | undefined },
): Promise<Finished | undefined> {
  const entry = await readHistory(ctx, promptId, options);
  if (!entry) return undefined;
  const files = outputFiles(entry);
  if (entry.status?.status_str !== "error" && files.length > 0) return { status: "done", files };
  // A prompt still being written to the history says neither success nor error yet: ask again.
  if (!entry.status?.status_str && entry.status?.completed !== true && files.length === 0) return undefined;
  const { reason, internal } = failureOf(ctx, entry);
  return {
    status: "failed",
    error: new ProviderError(
      reason
        ? `The AI provider could not make this ${what}: ${reason}`
        : `The AI provider could not make this ${what}. Please try again.`,
      // A model out of memory or a node that failed once may pass on a second try; the job queue limits retries.
      true,
      `comfyui prompt ${promptId}: ${internal}`,
    ),
  };
}

/**
 * Polls a prompt's history until it is done, failed or `deadlineAt` passes; a prompt given up on is taken off
 * the queue so the GPU does not make what no one will see.
 */
export async function waitForFiles(
  ctx: ComfyContext,
  promptId: string,
  what: "image" | "video",
  options: { deadlineAt: number; signal?: AbortSignal | undefined },
): Promise<ComfyFile[]> {
  let outcome: Finished | undefined;
  try {
    for (;;) {
      outcome = await readOutcome(ctx, promptId, what, options);
      if (outcome) break;
      const left = options.deadlineAt - Date.now();
      if (left <= 0) throw timeoutError(ctx, `prompt ${promptId}`);
      await sleep(Math.min(ctx.pollIntervalMs, left), undefined, { signal: options.signal });
    }
  } catch (error) {
    // A prompt we stop waiting for is still queued (a finished or failed one has left the queue).
    await dropFromQueue(ctx, promptId);
    throw options.signal?.aborted ? options.signal.reason : error;
  }
  if (outcome.status === "failed") throw outcome.error;
  return outcome.files;
}

/** One output file's bytes, which must be an image (or a video) by their content. */
export function fetchFile(
  ctx: ComfyContext,
  file: ComfyFile,
  kind: "image" | "video",
  options: { deadlineAt: number; signal?: AbortSignal | undefined },
): Promise<MediaFile> {
  const query = new URLSearchParams({ filename: file.filename, subfolder: file.subfolder, type: file.type });
  return requestMediaFile(
    { ...ctx, timeoutMs: remaining(options.deadlineAt) },
    { path: `/view?${query}`, kind, signal: options.signal },
  );
}
