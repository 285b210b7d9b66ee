// Speech to text through `audio.transcriptions` of OpenAI, Groq, whisper.cpp server or speaches.
import { toFile } from "openai";
import { z } from "zod";
import { parseAnswer } from "../http";
import type { SpeechProvider } from "../types";
import { callOpenAI, createOpenAIClient, type OpenAISettings } from "./client";

const transcriptionSchema = z.object({ text: z.string() });

export function createOpenAISpeechProvider(settings: OpenAISettings): SpeechProvider {
  const client = createOpenAIClient(settings);
  return {
    name: settings.vendor,

    async transcribe(request) {
      const answer = await callOpenAI(settings, request.signal, async (signal) => {
        const file = await toFile(request.audio, request.filename, { type: request.mimeType });
        return client.audio.transcriptions.create({ file, model: settings.model }, { signal });
      });
      // An empty text is a valid answer (silence); the caller decides what to tell the user.
      return parseAnswer(transcriptionSchema, answer, settings, "transcription").text.trim();
    },
  };
}
