// The offline voice: eSpeak NG compiled to WASM speaks on this machine, no network and no key. A fixed set
// of English voices, each an eSpeak accent plus a variant (pitch and timbre), so a story's characters can
// sound apart. Robotic next to a hosted voice, but real speech.
import { userMessages } from "../http";
import { ProviderError, type VoiceInfo, type VoiceProvider } from "../types";
import { EspeakRunner } from "./voice-espeak";
import { pcmFromWav, WavFormatError } from "./voice-wav";

/** The curated voices; ids are eSpeak's `-v` argument (voice+variant). The first is the default. */
export const offlineVoices: readonly VoiceInfo[] = [
  { id: "en-gb-x-rp+m3", name: "British, storyteller", language: "en-GB" },
  { id: "en-us+f3", name: "American, bright", language: "en-US" },
  { id: "en-us+m3", name: "American, low", language: "en-US" },
  { id: "en-gb+f4", name: "British, soft", language: "en-GB" },
  { id: "en-gb+m1", name: "British, brisk", language: "en-GB" },
  { id: "en-gb-scotland+f2", name: "Scottish, light", language: "en-GB-scotland" },
  { id: "en-029+m2", name: "Caribbean, warm", language: "en-029" },
  { id: "en-gb-x-gbclan+m4", name: "Lancashire, gruff", language: "en-GB" },
];

export type OfflineVoiceOptions = {
  /** Speaking rate (eSpeak's -s); 170 by default, a calm reading pace. */
  wordsPerMinute?: number;
  /** How long one synthesis may take before the worker is replaced; 60 s by default. */
  timeoutMs?: number;
};

// Narration is spoken in pieces of at most this much (cut at sentence ends), so a sentence read live waits for
// one piece at most, not for a whole message (docs/benchmarks.md, "Speech budgets", has the times).
export const OFFLINE_VOICE_MAX_CHARACTERS = 400;

export type OfflineVoiceProvider = VoiceProvider & {
  /** Stops the synthesis worker (tests); a later speak() starts a new one. */
  close(): Promise<void>;
};

export function createOfflineVoiceProvider(options: OfflineVoiceOptions = {}): OfflineVoiceProvider {
  const runner = new EspeakRunner(options.timeoutMs ?? 60_000);
  const wordsPerMinute = options.wordsPerMinute ?? 170;
  const known = new Set(offlineVoices.map((voice) => voice.id));
  return {
    name: "offline",
    // eSpeak speaks on this machine: speech costs players nothing.
    billed: false,
    maxCharacters: OFFLINE_VOICE_MAX_CHARACTERS,
    defaultVoice: offlineVoices[0]!.id,

    async listVoices() {
      return offlineVoices.map((voice) => ({ ...voice }));
    },

    async speak(request) {
      if (!known.has(request.voice)) {
        throw new ProviderError(
          `${userMessages.rejected}: there is no voice "${request.voice.slice(0, 40)}".`,
          false,
          `offline voice: unknown voice ${request.voice.slice(0, 100)}`,
        );
      }
      if (request.text.length > OFFLINE_VOICE_MAX_CHARACTERS) {
        throw new ProviderError(
          `${userMessages.rejected}: the text is longer than ${OFFLINE_VOICE_MAX_CHARACTERS} characters.`,
          false,
          `offline voice: ${request.text.length} characters`,
        );
      }
      // eSpeak takes the text as an argument: a leading "-" would make it an option (or a file to read).
      const text = request.text.replace(/^[\s-]+/, "").trim();
      if (!text) return { pcm: Buffer.alloc(0), sampleRate: 22050 };
      const wav = await runner.synthesize({
        voice: request.voice,
        text,
        wordsPerMinute,
        signal: request.signal,
        urgent: request.urgent,
        owner: request.owner,
      });
      try {
        return pcmFromWav(wav);
      } catch (error) {
        if (!(error instanceof WavFormatError)) throw error;
        throw new ProviderError(userMessages.malformed, true, `offline voice: eSpeak wrote ${error.message}`);
      }
    },

    warm: () => runner.warm(),

    close: () => runner.close(),
  };
}
