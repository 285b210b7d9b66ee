// The official OpenAI SDK set up for any OpenAI-compatible server (OpenAI, OpenRouter, Ollama, vLLM,
// llama.cpp, Groq, whisper.cpp, ModelArk chat), and the translation of its errors into ProviderErrors.
import OpenAI from "openai";
import {
  Deadline,
  errorForStatus,
  failureToThrow,
  malformedError,
  sanitizeVendorMessage,
  timeoutError,
  userMessages,
  type VendorContext,
  vendorErrorDetails,
} from "../http";
import { ProviderError } from "../types";

export type OpenAISettings = VendorContext & { model: string };

export function createOpenAIClient(settings: OpenAISettings): OpenAI {
  return new OpenAI({
    // Self-hosted servers (Ollama, llama.cpp) need no key, but the SDK refuses to start without one.
    apiKey: settings.apiKey ?? "no-key",
    // Everything explicit, so the SDK never falls back to OPENAI_* variables: config.ts owns the environment.
    baseURL: settings.baseUrl,
    organization: null,
    project: null,
    timeout: settings.timeoutMs,
    // The job queue retries with backoff; retries here would multiply the wait and the bill.
    maxRetries: 0,
    logLevel: "off",
  });
}

/** What to throw for a failure of an SDK call, given our deadline and the caller's signal. */
export function openAIFailure(
  error: unknown,
  deadline: Deadline,
  outer: AbortSignal | undefined,
  ctx: VendorContext,
): unknown {
  if (error instanceof ProviderError) return error;
  if (deadline.timedOut || error instanceof OpenAI.APIConnectionTimeoutError) return timeoutError(ctx);
  if (outer?.aborted) return outer.reason;
  const transportFailure =
    error instanceof OpenAI.APIConnectionError || error instanceof OpenAI.APIUserAbortError;
  if (error instanceof OpenAI.APIError && !transportFailure) {
    const details = vendorErrorDetails({ error: error.error });
    if (typeof error.status === "number") return errorForStatus(ctx, error.status, details);
    // No status: the error arrived inside a 200 stream (`data: {"error": ...}`), where some servers
    // (OpenRouter) put the upstream HTTP status in `code`.
    const code = Number(details.code);
    if (Number.isInteger(code) && code >= 400 && code < 600) return errorForStatus(ctx, code, details);
    const message = sanitizeVendorMessage(details.message ?? "", ctx, 500);
    return new ProviderError(
      userMessages.failed,
      true,
      `${ctx.vendor} error in stream ${details.code ?? ""} ${message}`,
    );
  }
  if (error instanceof SyntaxError) return malformedError(ctx, error.message);
  return failureToThrow(error, deadline, outer, ctx);
}

/** Runs one SDK call under the adapter's deadline and the caller's signal, mapping every failure. */
export async function callOpenAI<T>(
  ctx: VendorContext,
  outer: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  // The SDK's own time-out stops at the response headers; ours also covers reading the body.
  const deadline = new Deadline(ctx.timeoutMs, outer);
  try {
    return await call(deadline.signal);
  } catch (error) {
    throw openAIFailure(error, deadline, outer, ctx);
  } finally {
    deadline.dispose();
  }
}
