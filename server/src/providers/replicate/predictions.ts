// Replicate predictions: create one for a model (optionally waiting for it with `Prefer: wait`), read one back,
// wait for one to finish, and read its output links and failure text; and an input file as the model gets it.
import { z } from "zod";
import {
  malformedError,
  parseAnswer,
  requestJson,
  sanitizeVendorMessage,
  timeoutError,
  toDataUrl,
  type VendorContext,
} from "../http";
import type { MediaFile } from "../types";

export type ReplicateSettings = Omit<VendorContext, "vendor"> & {
  /** "owner/name" (the model's latest version) or "owner/name:version". */
  model: string;
  /** Pause between status reads while waiting for a prediction; tests shorten it. */
  pollIntervalMs?: number;
};

export function replicateContext(settings: ReplicateSettings): VendorContext {
  return {
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    downloadHosts: settings.downloadHosts,
    vendor: "replicate",
  };
}

const predictionSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["starting", "processing", "succeeded", "failed", "canceled", "aborted"]),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
});

export type Prediction = z.infer<typeof predictionSchema>;

export function isFinished(prediction: Prediction): boolean {
  return prediction.status !== "starting" && prediction.status !== "processing";
}

// Replicate holds a request for at most 60 s; waiting half our time-out leaves the rest for polling.
function preferWaitSeconds(timeoutMs: number): number {
  return Math.min(60, Math.max(1, Math.floor(timeoutMs / 2000)));
}

export async function createPrediction(
  ctx: VendorContext,
  model: string,
  input: Record<string, unknown>,
  options: { wait: boolean; signal?: AbortSignal | undefined },
): Promise<Prediction> {
  const [name = "", version] = model.split(":");
  const answer = await requestJson(ctx, {
    method: "POST",
    // A pinned version goes to /predictions; an official model's latest version to its own endpoint.
    path: version
      ? "/predictions"
      : `/models/${name.split("/").map(encodeURIComponent).join("/")}/predictions`,
    body: version ? { version, input } : { input },
    headers: options.wait ? { prefer: `wait=${preferWaitSeconds(ctx.timeoutMs)}` } : {},
    signal: options.signal,
  });
  return parseAnswer(predictionSchema, answer, ctx, "prediction");
}

export async function getPrediction(
  ctx: VendorContext,
  id: string,
  signal?: AbortSignal | undefined,
): Promise<Prediction> {
  // Built from the id rather than following `urls.get`, so the key only ever goes to the configured base URL.
  const answer = await requestJson(ctx, {
    method: "GET",
    path: `/predictions/${encodeURIComponent(id)}`,
    signal,
  });
  return parseAnswer(predictionSchema, answer, ctx, "prediction");
}

function cancelPrediction(ctx: VendorContext, id: string): void {
  // Best effort, not awaited: a prediction nobody waits for any more should stop costing money.
  requestJson(ctx, {
    method: "POST",
    path: `/predictions/${encodeURIComponent(id)}/cancel`,
    timeoutMs: Math.min(ctx.timeoutMs, 5000),
  }).catch(() => undefined);
}

/** Polls until the prediction is finished; past `timeoutMs` since `startedAt` it is cancelled and abandoned. */
export async function waitForPrediction(
  ctx: VendorContext,
  first: Prediction,
  options: { startedAt: number; pollIntervalMs: number; signal?: AbortSignal | undefined },
): Promise<Prediction> {
  let prediction = first;
  while (!isFinished(prediction)) {
    const remaining = options.startedAt + ctx.timeoutMs - Date.now();
    if (remaining <= 0) {
      cancelPrediction(ctx, prediction.id);
      throw timeoutError(ctx, "prediction");
    }
    await sleep(Math.min(options.pollIntervalMs, remaining), options.signal);
    prediction = await getPrediction(ctx, prediction.id, options.signal);
  }
  return prediction;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The result links of a succeeded prediction: models answer one link or a list of them. */
export function outputUrls(ctx: VendorContext, prediction: Prediction): string[] {
  const output = prediction.output;
  const urls = typeof output === "string" ? [output] : Array.isArray(output) ? output : [];
  const links = urls.filter((url): url is string => typeof url === "string" && url.length > 0);
  if (links.length === 0) throw malformedError(ctx, "succeeded prediction without output links");
  return links;
}

/** A user-safe sentence for a failed, canceled or aborted prediction. */
export function failureMessage(ctx: VendorContext, prediction: Prediction, what: "image" | "video"): string {
  if (prediction.status !== "failed") return `The AI provider cancelled this ${what}. Please try again.`;
  const reason = typeof prediction.error === "string" ? sanitizeVendorMessage(prediction.error, ctx) : "";
  return reason
    ? `The AI provider could not make this ${what}: ${reason}`
    : `The AI provider could not make this ${what}. Please try again.`;
}

/** Replicate recommends data URIs for input files under 1 MB only; larger ones go through its files API. */
export const DATA_URI_LIMIT = 1024 * 1024;

const fileSchema = z.object({ id: z.string().min(1), urls: z.object({ get: z.string().min(1) }) });
const extensions: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/**
 * An input file as a model input: a data URI when small, else uploaded (`POST /files`, multipart `content`) and
 * named by the link Replicate gives it, which predictions of the same account may read.
 */
export async function inputFile(ctx: VendorContext, file: MediaFile, signal?: AbortSignal): Promise<string> {
  if (file.data.length <= DATA_URI_LIMIT) return toDataUrl(file);
  const form = new FormData();
  form.append(
    "content",
    new Blob([new Uint8Array(file.data)], { type: file.mimeType }),
    `input.${extensions[file.mimeType] ?? "bin"}`,
  );
  const answer = await requestJson(ctx, { method: "POST", path: "/files", body: form, signal });
  return parseAnswer(fileSchema, answer, ctx, "file").urls.get;
}
