// Live reading (POST /api/stories/{id}/speech/live): while a turn is being written, "Read new turns aloud" sends
// each sentence as soon as it is complete on screen and plays the WAV this answers, so the story is heard while
// it streams. The sentence is spoken in the story's voices (the narrator's, and a quote in its speaker's when the
// sentence names them) and not kept. Offline voice only (decision 0110): it is free and takes well under a second
// a sentence, while a vendor's voice is paid once per message version, so its narration waits for the message.
import {
  LIVE_SPEECH_BUSY_DETAIL,
  LIVE_SPEECH_OFFLINE_ONLY_DETAIL,
  LIVE_SPEECH_PER_USER,
} from "@storyverse/contract/voice";
import { Busy, Conflict, ProviderFailed } from "../platform/errors";
import { ProviderError } from "../providers/types";
import { type NarrationContext, planSpeech, storyVoices } from "./narration";
import { speakSpeechParts } from "./narration-job";
import { speechUnitPrice } from "./voices";
import { wavFile } from "./wav";

/** Sentences being spoken per user in this process: the offline voice is CPU work, shared by every player. */
const speaking = new Map<string, number>();

class LiveSpeechFailed extends ProviderFailed {}

/** The sentence as a WAV in the story's voices; empty of words (only markup) answers a WAV of silence. */
export async function speakLive(
  ctx: NarrationContext,
  userId: string,
  storyId: string,
  text: string,
): Promise<Buffer> {
  const voices = await storyVoices(ctx, userId, storyId);
  if (speechUnitPrice(voices.provider) !== 0) throw new Conflict(LIVE_SPEECH_OFFLINE_ONLY_DETAIL);
  const busy = speaking.get(userId) ?? 0;
  if (busy >= LIVE_SPEECH_PER_USER) throw new Busy(LIVE_SPEECH_BUSY_DETAIL);
  speaking.set(userId, busy + 1);
  try {
    const { parts } = planSpeech(voices, text);
    // Spoken ahead of any narration this server is making: the player is listening now.
    const { audio } = await speakSpeechParts(voices.provider, parts, { urgent: true });
    return wavFile(audio);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    ctx.log.warn({ err: error, internal: error.internal }, "live reading failed");
    throw new LiveSpeechFailed(error.message);
  } finally {
    const left = (speaking.get(userId) ?? 1) - 1;
    if (left > 0) speaking.set(userId, left);
    else speaking.delete(userId);
  }
}
