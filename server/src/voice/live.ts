// Live reading (POST /api/stories/{id}/speech/live): while a turn is being written, "Read new turns aloud" sends
// each sentence as soon as it is complete on screen and plays the WAV this answers, so the story is heard while
// it streams. The sentence is spoken in the story's voices (the narrator's, and a quote in its speaker's when the
// sentence names them) and not kept. Offline voice only (decision 0110): it is free and quick enough to answer
// each sentence as it appears (docs/benchmarks.md, "Speech budgets"), while a vendor's voice is paid once per
// message version, so its narration waits for the message.
//
// The offline voice is one eSpeak worker per process, shared by every player (decision 0125): a player speaks
// at most LIVE_SPEECH_PER_USER sentences at once (429), the process at most LIVE_SPEECH_PER_PROCESS for all
// players together (503, try again shortly: the browser skips that sentence and reads on), and the worker's
// queue serves players in turn, so live reading cannot starve anyone's narration.
import {
  LIVE_SPEECH_BUSY_DETAIL,
  LIVE_SPEECH_OFFLINE_ONLY_DETAIL,
  LIVE_SPEECH_PER_USER,
} from "@storyverse/contract/voice";
import { Busy, Conflict, InvalidInput, ProviderFailed, Unavailable } from "../platform/errors";
import { wavFile } from "../platform/wav";
import { ProviderError } from "../providers/types";
import { storyCards } from "../story-cards";
import { speechUnitPrice } from "../voices";
import { type NarrationContext, planSpeech, storyVoices } from "./narration";
import { speakSpeechParts } from "./narration-job";

/** Sentences being spoken per user in this process: the offline voice is CPU work, shared by every player. */
const speaking = new Map<string, number>();
/** Sentences being spoken or waiting in this process, all players together. */
let speakingHere = 0;

/**
 * The most live sentences one process speaks or holds waiting at once. The worker speaks a sentence in a small
 * part of the time the sentence plays for (docs/benchmarks.md, "Speech budgets"), so this is about as many
 * players as one worker keeps reading aloud without gaps; more would only wait longer in its queue.
 */
export const LIVE_SPEECH_PER_PROCESS = 8;
export const LIVE_SPEECH_SERVER_BUSY_DETAIL =
  "The server is reading aloud for many players right now. Please try again in a moment.";
const SERVER_BUSY_RETRY_SECONDS = 2;

class LiveSpeechFailed extends ProviderFailed {}

/** The sentence as a WAV in the story's voices; empty of words (only markup) answers a WAV of silence. */
export async function speakLive(
  ctx: NarrationContext,
  userId: string,
  storyId: string,
  text: string,
  speakerId?: string,
): Promise<Buffer> {
  const voices = await storyVoices(ctx, userId, storyId);
  // A group scene's speaker (decision 0164): the turn being written is theirs.
  let teller = voices.teller;
  if (speakerId !== undefined) {
    const card = (await storyCards(ctx, userId, storyId)).find((row) => row.id === speakerId);
    if (!card) throw new InvalidInput(`speaker_id: ${speakerId} is not one of this story's cards`);
    teller = card.name;
  }
  if (speechUnitPrice(voices.provider) !== 0) throw new Conflict(LIVE_SPEECH_OFFLINE_ONLY_DETAIL);
  const busy = speaking.get(userId) ?? 0;
  if (busy >= LIVE_SPEECH_PER_USER) throw new Busy(LIVE_SPEECH_BUSY_DETAIL);
  if (speakingHere >= LIVE_SPEECH_PER_PROCESS) {
    throw new Unavailable(LIVE_SPEECH_SERVER_BUSY_DETAIL, { retryAfterSeconds: SERVER_BUSY_RETRY_SECONDS });
  }
  speaking.set(userId, busy + 1);
  speakingHere += 1;
  try {
    // A turn being written is the current teller's: a character telling the story reads in their voice.
    const { parts } = planSpeech(voices, text, teller);
    // Urgent: the player is listening now, so it goes ahead of narration being made (a few in a row at most).
    const { audio } = await speakSpeechParts(voices.provider, parts, { urgent: true, owner: userId });
    return wavFile(audio);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    ctx.log.warn({ err: error, internal: error.internal }, "live reading failed");
    throw new LiveSpeechFailed(error.message);
  } finally {
    speakingHere -= 1;
    const left = (speaking.get(userId) ?? 1) - 1;
    if (left > 0) speaking.set(userId, left);
    else speaking.delete(userId);
  }
}
