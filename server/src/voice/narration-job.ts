// The narration job: speaks a narration's parts in their voices (text longer than the provider takes is split
// at sentence ends), joins them with a short pause into one WAV in media storage, and records where each part
// starts and ends. Runs in the worker with retries; the last failing try fails the narration with its refund.
//
// Read aloud starts at once (decision 0133): the message's first sentence is spoken alone, first, and each piece
// is kept (message_speech_chunks) as soon as it is spoken, with the pause before it, so the player plays the
// pieces in order while the rest is spoken; played one after another they are exactly the stored file. The
// pieces go when the file is stored or the narration fails. The charge is the one made when it was asked for.
import { SPEECH_FAILED_MESSAGE } from "@storyverse/contract/voice";
import { z } from "zod";
import type { AppContext } from "../context";
import { refundPaid } from "../credits";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { durationSeconds, joinSpeech, wavFile } from "../platform/wav";
import { ProviderError, type SpeechAudio, type VoiceProvider } from "../providers/types";
import { firstSentenceFirst, splitForProvider } from "./parts";
import {
  addSpeechChunk,
  completeSpeechIfPending,
  deleteSpeechChunks,
  failSpeechIfPending,
  findSpeechById,
  type SpeechRow,
} from "./repo";

export const narrateMessageJob: JobSpec<{ speechId: string }> = {
  name: "narrate-message",
  payload: z.object({ speechId: z.uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};

/** Silence between two speakers' parts, and between pieces of one long part. */
const PART_PAUSE_SECONDS = 0.35;
const PIECE_PAUSE_SECONDS = 0.1;

type JobContext = Pick<AppContext, "db" | "clock" | "providers" | "storage" | "log" | "jobs">;

export const speechAudioKey = (row: Pick<SpeechRow, "userId" | "id">) =>
  `u/${row.userId}/speech/${row.id}.wav`;

/** What the player can play of a narration as it is spoken: each piece with the pause before it, in order. */
type OnPiece = (piece: SpeechAudio, index: number) => Promise<void>;

/**
 * Speaks parts in their voices (long ones in provider-sized pieces) as one clip, with each part's span in it.
 * `owner` (the user it is for) and `urgent` (a live sentence) place each piece in a queued provider's line.
 * With `onPiece`, the first sentence is spoken alone first, and each piece is handed over as soon as it is
 * spoken, led by the pause the clip has before it: the pieces one after another are the clip, sample for sample.
 */
export async function speakSpeechParts(
  provider: VoiceProvider,
  parts: SpeechRow["parts"],
  options: { urgent?: boolean; owner?: string; onPiece?: OnPiece } = {},
): Promise<{ audio: SpeechAudio; segments: NonNullable<SpeechRow["segments"]> }> {
  const { onPiece, ...speakOptions } = options;
  const spoken: SpeechAudio[] = [];
  let sampleRate: number | undefined;
  let index = 0;
  for (const [partIndex, part] of parts.entries()) {
    const pieces: SpeechAudio[] = [];
    const texts =
      onPiece && partIndex === 0
        ? firstSentenceFirst(part.text, provider.maxCharacters)
        : splitForProvider(part.text, provider.maxCharacters);
    for (const text of texts) {
      const audio = await provider.speak({ text, voice: part.voice, ...speakOptions });
      pieces.push(audio);
      if (!onPiece) continue;
      // The clip is at its first piece's rate; the pause before a piece is the one joinSpeech puts there.
      sampleRate ??= audio.sampleRate;
      const pause = index === 0 ? 0 : pieces.length === 1 ? PART_PAUSE_SECONDS : PIECE_PAUSE_SECONDS;
      await onPiece(joinSpeech([{ pcm: Buffer.alloc(0), sampleRate }, audio], pause).audio, index);
      index += 1;
    }
    spoken.push(joinSpeech(pieces, PIECE_PAUSE_SECONDS).audio);
  }
  const { audio, spans } = joinSpeech(spoken, PART_PAUSE_SECONDS);
  const segments = parts.map((part, index) => ({
    speaker: part.speaker,
    voice: part.voice,
    start: Math.round((spans[index]?.start ?? 0) * 1000) / 1000,
    end: Math.round((spans[index]?.end ?? 0) * 1000) / 1000,
    text: part.text,
  }));
  return { audio, segments };
}

/**
 * Fails a pending narration with its refund (the job's last try, or the stale time-out when its worker died):
 * a conditional update, so whichever settles first wins and the other changes nothing.
 */
export async function failSpeech(ctx: JobContext, row: SpeechRow, reason: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const failed = await failSpeechIfPending(tx, row.id, reason, ctx.clock.now());
    if (!failed) return false;
    await deleteSpeechChunks(tx, row.id);
    if (failed.chargedTenths > 0) {
      await refundPaid(
        { ...ctx, db: tx },
        failed,
        failed.chargedTenths,
        failed.id,
        "Refund: narration failed",
      );
    }
    return true;
  });
}

export async function narrateMessage(
  ctx: JobContext,
  { speechId }: { speechId: string },
  attempt: JobAttempt,
): Promise<void> {
  const row = await findSpeechById(ctx.db, speechId);
  if (row?.status !== "pending") return;
  let made: Awaited<ReturnType<typeof speakSpeechParts>>;
  try {
    const provider = ctx.providers.voice;
    if (!provider) throw new ProviderError("Narration is turned off on this server.", false);
    // The player's own lane in the offline voice's queue: narration is served in turn with everyone's.
    made = await speakSpeechParts(provider, row.parts, {
      owner: row.userId,
      onPiece: (piece, index) =>
        addSpeechChunk(ctx.db, row.id, index, Math.round(durationSeconds(piece) * 1000), wavFile(piece)),
    });
  } catch (error) {
    const retry = error instanceof ProviderError ? error.retryable : true;
    if (retry && !attempt.isLastAttempt) throw error;
    ctx.log.warn({ err: error, speechId }, "narration failed for good");
    const reason = error instanceof ProviderError ? error.message : SPEECH_FAILED_MESSAGE;
    await failSpeech(ctx, row, reason);
    return;
  }
  const key = speechAudioKey(row);
  await ctx.storage.put(key, wavFile(made.audio), "audio/wav");
  const durationMs = Math.round(durationSeconds(made.audio) * 1000);
  // The pieces stay a while after (the chunk sweep): a player may have listed one it has not fetched yet.
  const kept = await completeSpeechIfPending(
    ctx.db,
    row.id,
    { audioKey: key, durationMs, segments: made.segments },
    ctx.clock.now(),
  );
  // Failed meanwhile (the stale time-out refunded it) or deleted with its story: keep nothing.
  if (!kept) await ctx.storage.delete(key).catch(() => {});
}
