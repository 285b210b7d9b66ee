// Text to speech through `audio.speech` of OpenAI or an OpenAI-compatible server (Kokoro-FastAPI, speaches,
// LocalAI), asking for `pcm`: raw signed 16-bit little-endian mono at 24 kHz, no container to decode.
import type { VoiceInfo, VoiceProvider } from "../types";
import { callOpenAI, createOpenAIClient, type OpenAISettings } from "./client";
import { readPcmAnswer } from "./voice-pcm";

/** OpenAI's `pcm` response format is always 24 kHz. */
export const openAISpeechSampleRate = 24_000;
export const OPENAI_VOICE_MAX_CHARACTERS = 4096;

/** The built-in voices of OpenAI's speech models; OpenAI does not say which language suits each. */
export const openAIVoices: readonly VoiceInfo[] = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse",
  "marin",
  "cedar",
].map((id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1), language: "" }));

export function createOpenAIVoiceProvider(settings: OpenAISettings): VoiceProvider {
  const client = createOpenAIClient(settings);
  return {
    name: settings.vendor,
    billed: true,
    maxCharacters: OPENAI_VOICE_MAX_CHARACTERS,
    defaultVoice: "alloy",

    async listVoices() {
      return openAIVoices.map((voice) => ({ ...voice }));
    },

    async speak(request) {
      // OpenAI refuses an empty input; silence needs no call.
      if (!request.text.trim()) return { pcm: Buffer.alloc(0), sampleRate: openAISpeechSampleRate };
      const pcm = await callOpenAI(settings, request.signal, async (signal) => {
        const response = await client.audio.speech.create(
          { model: settings.model, input: request.text, voice: request.voice, response_format: "pcm" },
          { signal },
        );
        // Read inside the call, so the deadline also covers a body that stops arriving.
        return readPcmAnswer(response, settings);
      });
      return { pcm, sampleRate: openAISpeechSampleRate };
    },
  };
}
