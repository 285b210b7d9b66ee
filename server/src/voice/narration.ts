// The narration of a narrator message (POST/GET /api/stories/{id}/messages/{message_id}/speech): which parts are
// spoken in which voice (parts.ts), made once per message version, wording and cast of voices (the content key),
// in the worker (narration-job.ts). Vendor speech is paid per 1,000 characters when asked for and given back if
// the narration fails; offline speech is free.
//
// One outcome per paid narration: the charge settles in the transaction that queues the job (payFor), and the
// row leaves "pending" once, either completed by the job or failed (by the job's last try or, when its worker
// died, by the stale time-out here) in the same transaction as its keyed refund.
import { createHash, randomUUID } from "node:crypto";
import { markdownToPlain } from "@storyverse/contract/plain-text";
import { isRegexTrigger } from "@storyverse/contract/story-cards";
import {
  type MessageSpeech,
  SPEECH_BUSY_DETAIL,
  SPEECH_CHARACTERS_PER_UNIT,
  SPEECH_CHUNK_GONE_DETAIL,
  SPEECH_FAILED_MESSAGE,
  SPEECH_JOBS_PER_USER,
  speechCost,
} from "@storyverse/contract/voice";
import type { AppContext } from "../context";
import { storyMessageText } from "../conversation";
import { payFor } from "../credits";
import type { Queryable } from "../db/client";
import { Busy, InvalidInput, NotFound } from "../platform/errors";
import type { VoiceProvider } from "../providers/types";
import { generationSettings } from "../stories";
import { storyCards } from "../story-cards";
import { listVoices, speechUnitPrice, voiceProvider } from "../voices";
import { failSpeech, narrateMessageJob } from "./narration-job";
import { type CastMember, speechParts, voiceForName } from "./parts";
import {
  countPendingSpeech,
  deleteFailedSpeech,
  findSpeech,
  findSpeechChunk,
  insertSpeech,
  lockUserSpeech,
  type SpeechRow,
  speechChunkList,
  staleSpeech,
} from "./repo";

export type NarrationContext = Pick<AppContext, "db" | "clock" | "providers" | "storage" | "log" | "jobs">;

/** A narration still pending this long after it was asked for lost its worker for good: it fails, refunded. */
export const SPEECH_DEADLINE_MS = 20 * 60_000;
export const NO_WORDS_DETAIL = "This message has no words to read aloud.";

class SpeechBusy extends Busy {
  constructor() {
    super(SPEECH_BUSY_DETAIL);
  }
}

export type Plan = {
  parts: SpeechRow["parts"];
  contentKey: string;
  characters: number;
  cost: number;
};

/** A plain trigger word can name a speaker; a regex trigger (/.../) cannot. */
const plainWords = (triggers: string[]) => triggers.filter((trigger) => !isRegexTrigger(trigger));

/**
 * Who speaks a story: the provider, the narrator's voice and each enabled character card's voice; `teller`, the
 * character who tells the story now in character mode (decision 0154), whose voice reads a turn being written.
 */
export type StoryVoices = {
  provider: VoiceProvider;
  narratorVoice: string;
  cast: CastMember[];
  teller: string | null;
};

export async function storyVoices(
  ctx: NarrationContext,
  userId: string,
  storyId: string,
  settingsFirst?: Awaited<ReturnType<typeof generationSettings>>,
): Promise<StoryVoices> {
  const settings = settingsFirst ?? (await generationSettings(ctx, userId, storyId));
  const provider = voiceProvider(ctx);
  const offered = (await listVoices(ctx, provider)).map((voice) => voice.id);
  // A voice this provider no longer offers (the server's provider changed) falls back to the default.
  const usable = (voice: string | null | undefined) => (voice && offered.includes(voice) ? voice : undefined);
  const narratorVoice = usable(settings.narrator_voice) ?? provider.defaultVoice;
  const cards = await storyCards(ctx, userId, storyId);
  const cast: CastMember[] = cards
    .filter((card) => card.kind === "character" && card.enabled)
    .map((card) => ({
      name: card.name,
      aliases: plainWords(card.triggers),
      voice: usable(card.voice) ?? voiceForName(card.name, offered, narratorVoice),
    }));
  const tellerId = settings.teller === "character" ? settings.character_ids[0] : undefined;
  const teller = cards.find((card) => card.id === tellerId)?.name ?? null;
  return { provider, narratorVoice, cast, teller };
}

/**
 * Which voice reads which message, as a version in every film's and read-along book's content hash: a file made
 * under an older rule is made again, not served. 2: a character's message in that character's voice (0154).
 */
export const SPEECH_RULES_VERSION = 2;

/**
 * A character's message (decision 0154) is read in that character's voice, their card's or one picked from their
 * name (a card deleted since keeps sounding the same); no speaker: the narrator's.
 */
export function tellerVoice(
  { narratorVoice, cast }: Pick<StoryVoices, "narratorVoice" | "cast">,
  speaker: string | null | undefined,
): { name: string; voice: string } | undefined {
  if (!speaker) return undefined;
  const member = cast.find((m) => m.name.toLowerCase() === speaker.toLowerCase());
  const offered = [narratorVoice, ...cast.map((m) => m.voice)];
  return { name: speaker, voice: member?.voice ?? voiceForName(speaker, offered, narratorVoice) };
}

/** How a narrator message's text (markdown) is spoken in the story's voices, and what that costs. */
export function planSpeech(voices: StoryVoices, content: string, speaker: string | null = null): Plan {
  const { provider, narratorVoice, cast } = voices;
  const parts = speechParts(markdownToPlain(content), narratorVoice, cast, tellerVoice(voices, speaker));
  const characters = parts.reduce((sum, part) => sum + part.text.length, 0);
  const contentKey = createHash("sha256")
    .update(JSON.stringify({ provider: provider.name, parts }))
    .digest("hex");
  return { parts, contentKey, characters, cost: speechCost(speechUnitPrice(provider), characters) };
}

async function planNarration(ctx: NarrationContext, userId: string, storyId: string, messageId: string) {
  const settings = await generationSettings(ctx, userId, storyId);
  const message = await storyMessageText(ctx, userId, storyId, messageId);
  if (message?.role !== "assistant") throw new NotFound("Message not found");
  return planSpeech(await storyVoices(ctx, userId, storyId, settings), message.content, message.speaker);
}

async function toResponse(
  ctx: NarrationContext,
  messageId: string,
  row: SpeechRow | undefined,
  cost: number,
): Promise<MessageSpeech> {
  const completed = row?.status === "completed" && row.audioKey;
  return {
    success: true,
    message_id: messageId,
    status: row?.status ?? "none",
    audio_url: completed && row.audioKey ? await ctx.storage.signedUrl(row.audioKey) : null,
    duration_seconds: completed && row.durationMs !== null ? row.durationMs / 1000 : null,
    segments: (completed && row.segments) || [],
    error: row?.status === "failed" ? (row.error ?? SPEECH_FAILED_MESSAGE) : null,
    cost: completed || row?.status === "pending" ? 0 : cost,
    chunks:
      row?.status === "pending"
        ? (await speechChunkList(ctx.db, row.id)).map((chunk) => ({
            duration_seconds: chunk.durationMs / 1000,
          }))
        : [],
  };
}

async function expireStale(ctx: NarrationContext, userId: string): Promise<void> {
  const before = new Date(ctx.clock.now().getTime() - SPEECH_DEADLINE_MS);
  for (const row of await staleSpeech(ctx.db, userId, before)) {
    await failSpeech(ctx, row, SPEECH_FAILED_MESSAGE);
  }
}

export async function messageSpeech(
  ctx: NarrationContext,
  userId: string,
  storyId: string,
  messageId: string,
): Promise<MessageSpeech> {
  const plan = await planNarration(ctx, userId, storyId, messageId);
  await expireStale(ctx, userId);
  return toResponse(ctx, messageId, await findSpeech(ctx.db, messageId, plan.contentKey), plan.cost);
}

/**
 * Starts the narration of the message as it now reads (or answers the one already made or being made): at
 * most SPEECH_JOBS_PER_USER pending per user (429), paid for first when the provider is a vendor (402).
 */
export async function startSpeech(
  ctx: NarrationContext & Pick<AppContext, "spendingCaps">,
  userId: string,
  storyId: string,
  messageId: string,
): Promise<MessageSpeech> {
  const plan = await planNarration(ctx, userId, storyId, messageId);
  if (plan.parts.length === 0) throw new InvalidInput(NO_WORDS_DETAIL);
  await expireStale(ctx, userId);
  const existing = await findSpeech(ctx.db, messageId, plan.contentKey);
  if (existing && existing.status !== "failed") return toResponse(ctx, messageId, existing, plan.cost);
  if (existing) await deleteFailedSpeech(ctx.db, existing.id);
  // A first check before any charge; the one inside the transaction below is the guard.
  if ((await countPendingSpeech(ctx.db, userId)) >= SPEECH_JOBS_PER_USER) throw new SpeechBusy();
  await ctx.jobs.ready(narrateMessageJob);

  const id = randomUUID();
  const now = ctx.clock.now();
  /** Inserts the row and queues its job in the caller's transaction: the row exists exactly when its job does. */
  const queueIn = async (tx: Queryable, chargedTenths: number) => {
    await lockUserSpeech(tx, userId);
    if ((await countPendingSpeech(tx, userId)) >= SPEECH_JOBS_PER_USER) throw new SpeechBusy();
    const row = await insertSpeech(tx, {
      id,
      userId,
      storyId,
      messageId,
      contentKey: plan.contentKey,
      status: "pending",
      parts: plan.parts,
      chargedTenths,
      createdAt: now,
      updatedAt: now,
    });
    if (row) await ctx.jobs.send(narrateMessageJob, { speechId: id }, { tx, id });
    return row;
  };

  if (plan.cost === 0) {
    const row = await ctx.db.transaction((tx) => queueIn(tx, 0));
    return toResponse(ctx, messageId, row ?? (await findSpeech(ctx.db, messageId, plan.contentKey)), 0);
  }
  const units = Math.ceil(plan.characters / SPEECH_CHARACTERS_PER_UNIT);
  const { result } = await payFor(
    ctx,
    {
      userId,
      kind: "speech",
      quantity: units,
      description: `Narration (${plan.characters} characters)`,
      paidFor: id,
      refundDescription: "Refund: narration failed",
    },
    async (paid, settle) => {
      const row = await ctx.db.transaction(async (tx) => {
        const inserted = await queueIn(tx, paid.chargedTenths);
        // A racing request made this narration first: nothing here was delivered, all of it goes back.
        await settle(tx, inserted ? 0 : paid.chargedTenths);
        return inserted;
      });
      return {
        result: row,
        undeliveredTenths: row ? 0 : paid.chargedTenths,
        refundDescription: "Refund: narration already being made",
      };
    },
  );
  return toResponse(ctx, messageId, result ?? (await findSpeech(ctx.db, messageId, plan.contentKey)), 0);
}

/**
 * One spoken piece of the message's narration while it is being made (decision 0133), as a WAV. A stored
 * narration keeps its pieces for SPEECH_CHUNK_KEEP_MS (a player may have listed one just before); after that,
 * or once the narration failed, they are gone: 404, and the narration's own answer says why.
 */
export async function speechChunk(
  ctx: NarrationContext,
  userId: string,
  storyId: string,
  messageId: string,
  index: number,
): Promise<Buffer> {
  const plan = await planNarration(ctx, userId, storyId, messageId);
  const row = await findSpeech(ctx.db, messageId, plan.contentKey);
  const wav = row && row.status !== "failed" ? await findSpeechChunk(ctx.db, row.id, index) : undefined;
  if (!wav) throw new NotFound(SPEECH_CHUNK_GONE_DETAIL);
  return wav;
}
