// The story speaks (issue #31): the voices the configured speech provider offers, the narrator's and each
// card's voice, and the narration of a narrator message (one audio file, its parts timed per speaker).
import { z } from "zod";

export const VOICE_ID_MAX_LENGTH = 100;
/** Speech is priced per this many characters of spoken text (rounded up); offline speech is free. */
export const SPEECH_CHARACTERS_PER_UNIT = 1000;
/** Narration jobs one user may have running at once (a third waits for one to end: 429). */
export const SPEECH_JOBS_PER_USER = 2;
export const SPEECH_BUSY_DETAIL =
  "You already have narrations being made. Please wait for one to finish, then try again.";
export const SPEECH_OFF_DETAIL = "Narration is turned off on this server (TTS_PROVIDER=none).";
export const SPEECH_FAILED_MESSAGE = "The narration could not be made. Please try again.";
export const UNKNOWN_VOICE_DETAIL = "voice: choose one of the voices listed by GET /api/voices.";
/** Playback speeds the message player offers. */
export const SPEECH_RATES = [0.75, 1, 1.25, 1.5, 2] as const;

export const voiceIdSchema = z
  .string({ error: "voice must be a voice id or null" })
  .trim()
  .min(1, "voice must be a voice id or null")
  .max(VOICE_ID_MAX_LENGTH, `voice must be at most ${VOICE_ID_MAX_LENGTH} characters`);

export const voiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string().describe('A BCP 47 tag ("en-US"), or "" when the provider does not say'),
  /** GET it for a short sample of the voice (audio/wav), made once and kept. */
  sample_url: z.string(),
});
export type Voice = z.infer<typeof voiceSchema>;

export const voicesResponseSchema = z.object({
  success: z.literal(true),
  /** "offline", "openai", "elevenlabs"; "none" (and no voices) when narration is off. */
  provider: z.string(),
  /** The voice used where a story or card names none; null when narration is off. */
  default_voice: z.string().nullable(),
  /** Credits per SPEECH_CHARACTERS_PER_UNIT characters; 0 for offline speech. */
  price_per_unit: z.number(),
  voices: z.array(voiceSchema),
});
export type VoicesResponse = z.infer<typeof voicesResponseSchema>;

/** The price of speaking `characters` characters at `unitPrice` credits per unit. */
export function speechCost(unitPrice: number, characters: number): number {
  const units = Math.ceil(Math.max(0, characters) / SPEECH_CHARACTERS_PER_UNIT);
  return Math.round(unitPrice * units * 10) / 10;
}

export const SPEECH_STATUSES = ["none", "pending", "completed", "failed"] as const;
export type SpeechStatus = (typeof SPEECH_STATUSES)[number];

export const speechSegmentSchema = z.object({
  /** "Narrator", or the name of the card whose character says the line. */
  speaker: z.string(),
  voice: z.string(),
  /** Seconds from the start of the audio. */
  start: z.number(),
  end: z.number(),
  text: z.string(),
});
export type SpeechSegment = z.infer<typeof speechSegmentSchema>;

export const messageSpeechSchema = z.object({
  success: z.literal(true),
  message_id: z.string(),
  /** none: never asked for (or the message changed since); pending: being made. */
  status: z.enum(SPEECH_STATUSES),
  audio_url: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  segments: z.array(speechSegmentSchema),
  /** Why it failed, safe to show; null otherwise. */
  error: z.string().nullable(),
  /** What narrating this message costs (0 offline, or when already made). */
  cost: z.number(),
  /**
   * While pending: the pieces spoken so far, in order, the first sentence first (decision 0133). GET
   * .../speech/chunks/{index} answers each as audio/wav; played one after another from the first they are the
   * narration from its start, so a player starts on the first before the whole is made. Empty otherwise.
   */
  chunks: z.array(z.object({ duration_seconds: z.number() })).default([]),
});
export type MessageSpeech = z.infer<typeof messageSpeechSchema>;

/** A piece of a narration asked for after the narration was stored (or failed): it is no longer kept. */
export const SPEECH_CHUNK_GONE_DETAIL =
  "This piece of the narration is no longer kept: ask for the narration again.";

/**
 * Live reading: while a turn is written, each finished sentence is spoken at once
 * (POST /api/stories/{id}/speech/live answers its WAV). Offline voice only: it is free and quick, while a
 * vendor's voice is paid once per message version, so its narration waits for the finished message.
 */
export const LIVE_SPEECH_MAX_CHARACTERS = 1000;
/** Live sentences one user may have being spoken at once (more: 429). */
export const LIVE_SPEECH_PER_USER = 2;
export const LIVE_SPEECH_OFFLINE_ONLY_DETAIL =
  "Live reading uses the offline voice; this server's voices narrate each finished message instead.";
export const LIVE_SPEECH_BUSY_DETAIL = "Too many sentences are being spoken at once. Please try again.";

export const liveSpeechRequestSchema = z.object({
  text: z
    .string({ error: "text must be a string" })
    .trim()
    .min(1, "text: give the sentence to read aloud.")
    .max(LIVE_SPEECH_MAX_CHARACTERS, `text: at most ${LIVE_SPEECH_MAX_CHARACTERS} characters per call.`),
  /**
   * Whose turn is being written (a group scene's `speaker` event, decision 0164): read in that card's voice;
   * absent: the story's teller (the narrator, or the character a character teller plays).
   */
  speaker_id: z.uuid("speaker_id must be the id of one of this story's cards").optional(),
});
