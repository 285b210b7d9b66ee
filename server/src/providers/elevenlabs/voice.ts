// ElevenLabs text to speech: `POST /text-to-speech/{voice_id}?output_format=pcm_22050` answers raw signed 16-bit
// little-endian mono PCM at 22.05 kHz; `GET /voices` lists the account's voices (cached for a minute, since the
// voice picker asks often and the list rarely changes). Auth is the `xi-api-key` header, not a bearer token.
import { z } from "zod";
import {
  Deadline,
  errorForStatus,
  failureToThrow,
  parseAnswer,
  type VendorContext,
  type VendorErrorDetails,
  vendorErrorDetails,
} from "../http";
import { readPcmAnswer } from "../openai/voice-pcm";
import type { VoiceInfo, VoiceProvider } from "../types";

export const elevenLabsSampleRate = 22_050;
export const ELEVENLABS_VOICE_MAX_CHARACTERS = 5000;
/** George, one of ElevenLabs' premade voices that every account has. */
export const elevenLabsDefaultVoice = "JBFqnCBsd6RMkjVDRZzb";
const voicesCacheMs = 60_000;
// Error bodies are a line or two; the cap only guards against a broken proxy.
const maxErrorBodyBytes = 64 * 1024;

export type ElevenLabsSettings = VendorContext & {
  model: string;
  /** The voice used where a story names none; George when not given. */
  defaultVoice?: string;
  /** The clock the voice list's cache reads (tests). */
  now?: () => number;
};

const voicesSchema = z.object({
  voices: z.array(
    z.object({
      voice_id: z.string().min(1),
      name: z.string(),
      labels: z.record(z.string(), z.string().nullish()).nullish(),
    }),
  ),
});

/**
 * ElevenLabs' error bodies: `{detail: {status, message}}` for its own refusals (invalid_api_key,
 * voice_not_found, quota_exceeded) and FastAPI's `{detail: [{loc, msg, type}]}` for a malformed request.
 */
export function elevenLabsErrorDetails(body: unknown): VendorErrorDetails {
  if (typeof body === "object" && body !== null && "detail" in body) {
    const detail = (body as { detail: unknown }).detail;
    if (Array.isArray(detail)) {
      const first = detail[0] as { msg?: unknown; type?: unknown } | undefined;
      return {
        message: typeof first?.msg === "string" ? first.msg : undefined,
        code: typeof first?.type === "string" ? first.type : undefined,
      };
    }
    if (typeof detail === "object" && detail !== null) {
      const { status, message } = detail as { status?: unknown; message?: unknown };
      return {
        message: typeof message === "string" ? message : undefined,
        code: typeof status === "string" ? status : undefined,
      };
    }
  }
  return vendorErrorDetails(body);
}

async function errorFor(ctx: VendorContext, response: Response): Promise<unknown> {
  const text = Buffer.from(await response.arrayBuffer())
    .subarray(0, maxErrorBodyBytes)
    .toString("utf8");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // A proxy's HTML or plain-text page: the status alone decides.
  }
  return errorForStatus(ctx, response.status, elevenLabsErrorDetails(body));
}

/** One call with the `xi-api-key` header under the adapter's deadline; `read` runs inside it too. */
async function callElevenLabs<T>(
  ctx: VendorContext,
  request: { method: "GET" | "POST"; path: string; body?: unknown; signal?: AbortSignal | undefined },
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const deadline = new Deadline(ctx.timeoutMs, request.signal);
  try {
    const headers: Record<string, string> = {};
    if (ctx.apiKey) headers["xi-api-key"] = ctx.apiKey;
    if (request.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${ctx.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: deadline.signal,
      // A redirect would carry the key to wherever it points.
      redirect: "error",
    });
    if (!response.ok) throw await errorFor(ctx, response);
    return await read(response);
  } catch (error) {
    throw failureToThrow(error, deadline, request.signal, ctx);
  } finally {
    deadline.dispose();
  }
}

export function createElevenLabsVoiceProvider(settings: ElevenLabsSettings): VoiceProvider {
  const now = settings.now ?? Date.now;
  let cached: { at: number; voices: VoiceInfo[] } | undefined;
  return {
    name: "elevenlabs",
    billed: true,
    maxCharacters: ELEVENLABS_VOICE_MAX_CHARACTERS,
    defaultVoice: settings.defaultVoice ?? elevenLabsDefaultVoice,

    async listVoices(signal) {
      if (cached && now() - cached.at < voicesCacheMs) return cached.voices.map((voice) => ({ ...voice }));
      const answer = await callElevenLabs(settings, { method: "GET", path: "/voices", signal }, (response) =>
        response.json(),
      );
      const voices = parseAnswer(voicesSchema, answer, settings, "voices").voices.map((voice) => ({
        id: voice.voice_id,
        name: voice.name,
        language: voice.labels?.language ?? "",
      }));
      cached = { at: now(), voices };
      return voices.map((voice) => ({ ...voice }));
    },

    async speak(request) {
      if (!request.text.trim()) return { pcm: Buffer.alloc(0), sampleRate: elevenLabsSampleRate };
      const pcm = await callElevenLabs(
        settings,
        {
          method: "POST",
          path: `/text-to-speech/${encodeURIComponent(request.voice)}?output_format=pcm_22050`,
          body: { text: request.text, model_id: settings.model },
          signal: request.signal,
        },
        (response) => readPcmAnswer(response, settings),
      );
      return { pcm, sampleRate: elevenLabsSampleRate };
    },
  };
}
