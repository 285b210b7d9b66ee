// POST /api/transcribe-audio: a recorded voice message (multipart, webm or mp4, up to 25 MB) to text.
import { MAX_AUDIO_BYTES, NO_SPEECH_MESSAGE, transcriptionResponseSchema } from "@storyverse/contract/chat";
import { errorBodySchema } from "@storyverse/contract/errors";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import { InvalidInput, ProviderFailed, Unavailable } from "../platform/errors";
import { ProviderError } from "../providers/types";
import { sniffAudio } from "./audio";

const transcriptionRule = { name: "transcription-user", limit: 30, windowMs: 60_000 };

export const transcriptionRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.post(
    "/api/transcribe-audio",
    {
      config: { slowBody: true },
      schema: {
        tags: ["chat"],
        summary: "Transcribe a voice recording (multipart field `audio` or `file`; webm or mp4; 25 MB)",
        consumes: ["multipart/form-data"],
        response: {
          200: transcriptionResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          413: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const speech = ctx.providers.speech;
      if (!speech) throw new Unavailable("Voice input is not available on this server.");
      await kit.limiter.hit(transcriptionRule, user.id);
      if (!request.isMultipart()) throw new InvalidInput("Send the recording as multipart/form-data.");
      const part = await request.file({ limits: { fileSize: MAX_AUDIO_BYTES, files: 1 } });
      if (!part) throw new InvalidInput("No audio file was sent.");
      const audio = await part.toBuffer();
      if (audio.length === 0) throw new InvalidInput("The recording is empty.");
      const kind = sniffAudio(audio);
      if (!kind) throw new InvalidInput("Please record audio as WebM or MP4.");
      try {
        const text = (
          await speech.transcribe({ audio, mimeType: kind.mimeType, filename: `voice.${kind.extension}` })
        ).trim();
        if (!text) return { success: false, text: "", error: NO_SPEECH_MESSAGE };
        return { success: true, text, error: null };
      } catch (error) {
        if (error instanceof ProviderError) throw new ProviderFailed(error.message);
        throw error;
      }
    },
  );
};
