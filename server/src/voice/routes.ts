// HTTP for the story's voices: the voices on offer and their samples (GET /api/voices, GET
// /api/voices/{voice}/sample), the narration of a narrator message (GET and POST
// /api/stories/{id}/messages/{message_id}/speech, and GET .../speech/chunks/{index}: its pieces while it is made,
// decision 0133) and live reading of a sentence while a turn is written
// (POST /api/stories/{id}/speech/live). Owner only (others: 404).
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  liveSpeechRequestSchema,
  messageSpeechSchema,
  VOICE_ID_MAX_LENGTH,
  voicesResponseSchema,
} from "@storyverse/contract/voice";
import { z } from "zod";
import { currentUser } from "../http/auth";
import { storyMessageParams, storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { listVoices, sampleUrl, speechUnitPrice, voiceSample } from "../voices";
import { speakLive } from "./live";
import { messageSpeech, speechChunk, startSpeech } from "./narration";

const tags = ["voice"];
const sampleRule = { name: "voice-sample-user", limit: 60, windowMs: 60_000 };
const speechRule = { name: "speech-user", limit: 60, windowMs: 60_000 };
// A long turn is a few dozen sentences; a player reads a few turns a minute.
const liveRule = { name: "speech-live-user", limit: 240, windowMs: 60_000 };

export const voiceRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/voices",
    {
      schema: {
        tags,
        summary: "The voices the configured speech provider offers (none when TTS_PROVIDER=none)",
        response: { 200: voicesResponseSchema, 401: errorBodySchema, 502: errorBodySchema },
      },
    },
    async () => {
      const provider = ctx.providers.voice;
      // A story page asks for the voices when it opens: the voice gets ready before its first sentence.
      provider?.warm?.();
      const voices = provider ? await listVoices(ctx, provider) : [];
      return {
        success: true as const,
        provider: provider?.name ?? "none",
        default_voice: provider?.defaultVoice ?? null,
        price_per_unit: speechUnitPrice(provider),
        voices: voices.map((voice) => ({ ...voice, sample_url: sampleUrl(voice.id) })),
      };
    },
  );

  app.get(
    "/api/voices/:voice/sample",
    {
      schema: {
        tags,
        summary: "A short sample of one voice (audio/wav), made once and kept",
        params: z.object({ voice: z.string().min(1).max(VOICE_ID_MAX_LENGTH, "Voice not found") }),
      },
    },
    async (request, reply) => {
      await kit.limiter.hit(sampleRule, currentUser(request).id);
      const wav = await voiceSample(ctx, request.params.voice);
      return reply.type("audio/wav").header("cache-control", "private, max-age=86400").send(wav);
    },
  );

  app.get(
    "/api/stories/:id/messages/:message_id/speech",
    {
      schema: {
        tags,
        summary: "The narration of a narrator message as it now reads: none, pending, completed or failed",
        params: storyMessageParams,
        response: { 200: messageSpeechSchema, 503: errorBodySchema },
      },
    },
    async (request) =>
      messageSpeech(ctx, currentUser(request).id, scopedStory(request).id, request.params.message_id),
  );

  app.post(
    "/api/stories/:id/messages/:message_id/speech",
    {
      schema: {
        tags,
        summary:
          "Narrate a narrator message (once per version, wording and voices): the narrator's voice and each character's",
        params: storyMessageParams,
        response: {
          202: messageSpeechSchema,
          200: messageSpeechSchema,
          402: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(speechRule, userId);
      const speech = await startSpeech(ctx, userId, scopedStory(request).id, request.params.message_id);
      return reply.code(speech.status === "pending" ? 202 : 200).send(speech);
    },
  );

  app.get(
    "/api/stories/:id/messages/:message_id/speech/chunks/:index",
    {
      schema: {
        tags,
        summary:
          "One piece of a narration being made (audio/wav), the first sentence first: played in order while the rest is spoken",
        params: storyMessageParams.extend({
          index: z.coerce
            .number()
            .int("Piece not found")
            .min(0, "Piece not found")
            .max(100_000, "Piece not found"),
        }),
      },
    },
    async (request, reply) => {
      const { message_id, index } = request.params;
      const { id } = scopedStory(request);
      const wav = await speechChunk(ctx, currentUser(request).id, id, message_id, index);
      return reply.type("audio/wav").header("cache-control", "no-store").send(wav);
    },
  );

  app.post(
    "/api/stories/:id/speech/live",
    {
      schema: {
        tags,
        summary:
          "Speak one sentence of a turn being written, at once, in the story's voices (audio/wav; offline voice only)",
        params: storyParams,
        body: liveSpeechRequestSchema,
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(liveRule, userId);
      const wav = await speakLive(
        ctx,
        userId,
        scopedStory(request).id,
        request.body.text,
        request.body.speaker_id,
      );
      return reply.type("audio/wav").header("cache-control", "no-store").send(wav);
    },
  );
};
