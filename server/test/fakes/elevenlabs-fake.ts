// A fake ElevenLabs API (/v1): GET /voices and POST /text-to-speech/{voice_id}?output_format=pcm_22050 (a tone
// per voice, as long as the text asks), with the `xi-api-key` check and ElevenLabs' `{detail: {status, message}}`
// error bodies. A small front server records each request's query string, which the shared fake server drops.
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "./fake-server";
import { fakeSpeechPcm } from "./openai-fake";

export type ElevenLabsVoice = { voice_id: string; name: string; labels: Record<string, string> };

export type ElevenLabsFake = FakeServer & {
  /** Base URL to configure (TTS_BASE_URL), ending in /v1. */
  baseUrl: string;
  apiKey: string;
  /** What GET /v1/voices lists; text-to-speech accepts these ids only. */
  voices: ElevenLabsVoice[];
  /** The query string of every API request, in order (`output_format=pcm_22050`). */
  queries: URLSearchParams[];
};

const defaults: Record<number, { status: string; message: string }> = {
  400: { status: "invalid_request", message: "The request is invalid." },
  401: { status: "invalid_api_key", message: "Invalid API key" },
  403: {
    status: "missing_permissions",
    message: "The API key you used is missing the permission text_to_speech.",
  },
  404: { status: "voice_not_found", message: "A voice with the voice_id was not found." },
  429: {
    status: "too_many_concurrent_requests",
    message: "Too many concurrent requests. Your current subscription allows 2 concurrent requests.",
  },
  500: { status: "internal_error", message: "An internal error occurred." },
  503: { status: "service_unavailable", message: "The service is temporarily overloaded." },
};

export const elevenLabsError: ErrorShape = (status, code, message) => {
  const fallback = defaults[status] ?? defaults[500]!;
  return {
    kind: "json",
    status,
    body: { detail: { status: code ?? fallback.status, message: message ?? fallback.message } },
  };
};

/** The front server hands the query string on in this header, so the handler can read it. */
const queryHeader = "x-fake-query";

const outputFormats = new Set(["pcm_16000", "pcm_22050", "pcm_24000", "pcm_44100", "mp3_44100_128"]);

export async function startElevenLabsFake(options: { apiKey?: string } = {}): Promise<ElevenLabsFake> {
  const apiKey = options.apiKey ?? "sk_test_elevenlabs_0123456789abcdef";
  const voices: ElevenLabsVoice[] = [
    { voice_id: "JBFqnCBsd6RMkjVDRZzb", name: "George", labels: { accent: "british", gender: "male" } },
    {
      voice_id: "EXAVITQu4vr4xnSDxMaL",
      name: "Sarah",
      labels: { accent: "american", gender: "female", language: "en" },
    },
    { voice_id: "XrExE9yKIg1WjnnlVkGX", name: "Matilda", labels: { gender: "female", language: "en" } },
  ];
  const queries: URLSearchParams[] = [];

  function handle(request: RecordedRequest): FakeReply {
    if (request.headers["xi-api-key"] !== apiKey) return elevenLabsError(401);
    if (request.method === "GET" && request.path === "/v1/voices") {
      return { kind: "json", status: 200, body: { voices, has_more: false, total_count: voices.length } };
    }
    const speech = /^\/v1\/text-to-speech\/([^/]+)$/.exec(request.path);
    if (request.method === "POST" && speech) return speechReply(decodeURIComponent(speech[1]!), request);
    return { kind: "json", status: 404, body: { detail: "Not Found" } };
  }

  function speechReply(voiceId: string, request: RecordedRequest): FakeReply {
    const body = (request.json ?? {}) as { text?: unknown; model_id?: unknown };
    if (typeof body.text !== "string" || !body.text) {
      return {
        kind: "json",
        status: 422,
        body: { detail: [{ loc: ["body", "text"], msg: "Field required", type: "missing" }] },
      };
    }
    if (body.text.length > 5000) {
      return elevenLabsError(400, "max_character_limit_exceeded", "Text is longer than 5000 characters.");
    }
    if (!voices.some((voice) => voice.voice_id === voiceId)) {
      return elevenLabsError(404, "voice_not_found", `A voice with voice_id ${voiceId} was not found.`);
    }
    const query = new URLSearchParams(String(request.headers[queryHeader] ?? ""));
    const format = query.get("output_format") ?? "mp3_44100_128";
    if (!outputFormats.has(format)) {
      return elevenLabsError(400, "invalid_output_format", `Invalid output format ${format}.`);
    }
    const rate = format.startsWith("pcm_") ? Number(format.slice(4)) : 0;
    if (!rate) return elevenLabsError(400, "unsupported_format", "The fake speaks only pcm_* formats.");
    return {
      kind: "raw",
      status: 200,
      body: fakeSpeechPcm(voiceId, body.text, rate),
      contentType: "audio/pcm",
    };
  }

  const inner = await startFakeServer(handle, elevenLabsError);
  const front = await startFront(inner.origin, queries);
  // Object.assign replaces these on `inner` itself, so keep the originals.
  const { reset: resetInner, close: closeInner } = inner;
  return Object.assign(inner, {
    origin: front.origin,
    baseUrl: `${front.origin}/v1`,
    apiKey,
    voices,
    queries,
    reset: () => {
      resetInner();
      queries.length = 0;
    },
    close: async () => {
      await front.close();
      await closeInner();
    },
  });
}

/** Passes every request on to the shared fake server, noting its query string and handing it on in a header. */
async function startFront(
  target: string,
  queries: URLSearchParams[],
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", target);
    if (!url.pathname.startsWith("/files/")) queries.push(url.searchParams);
    const upstream = http.request(
      url,
      { method: req.method, headers: { ...req.headers, [queryHeader]: url.search.slice(1) }, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
