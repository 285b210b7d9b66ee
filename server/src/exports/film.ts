// The story's film, as the owner sees it: start one (free with the offline voice: it reuses what was paid
// for; a vendor voice's narration is paid per 1,000 characters when it is started and refunded if the film
// fails; one at a time per story, enforced by the database), and read the newest one's status, progress,
// URL and captions. A film asked for again while the story and its voices are unchanged (its content hash,
// decision 0131) is the newest film shown again: no new job and no charge.
import { randomUUID } from "node:crypto";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import type { Film, FilmResponse } from "@storyverse/contract/film";
import { SPEECH_CHARACTERS_PER_UNIT, speechCost } from "@storyverse/contract/voice";
import type { AppContext } from "../context";
import { fromTenths, payFor } from "../credits";
import type { Queryable } from "../db/client";
import { ownedMediaUrl } from "../media";
import { Conflict, InvalidInput } from "../platform/errors";
import { ownedStoryRecord } from "../stories";
import { planSpeech, type StoryVoices, storyVoices } from "../voice";
import { speechUnitPrice } from "../voices";
import { openBook } from "./book";
import { filmHash } from "./content-hash";
import { FILM_FAILED_MESSAGE, refundFilm, storyFilmJob } from "./film-job";
import { type FilmRow, failStaleFilms, insertFilm, latestFilm } from "./film-repo";

type FilmContext = Pick<
  AppContext,
  "db" | "clock" | "storage" | "jobs" | "providers" | "log" | "spendingCaps"
>;

/** A film that has not reported for this long lost its worker: it counts as failed and frees the story. */
export const FILM_STALE_MS = 40 * 60 * 1000;
export const FILM_BUSY_MESSAGE = "A film of this story is already being made. Please wait for it to finish.";
export const NO_SCENES_MESSAGE = "This story has no pictures or clips to film yet.";

async function toFilm(ctx: Pick<AppContext, "db" | "storage">, row: FilmRow): Promise<Film> {
  const videoUrl = row.mediaItemId ? await ownedMediaUrl(ctx, row.userId, row.mediaItemId) : null;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    step: row.status === "queued" || row.status === "running" ? row.step : null,
    error: row.error,
    video_url: videoUrl,
    // The captions go with the video: none once it was deleted from the gallery.
    captions_url: videoUrl && row.captionsKey ? await ctx.storage.signedUrl(row.captionsKey) : null,
    media_id: row.mediaItemId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
};

/** Fails the story's films whose worker died, each with its narration's refund in the same transaction. */
async function expireStale(ctx: FilmContext, storyId: string) {
  const now = ctx.clock.now();
  const staleBefore = new Date(now.getTime() - FILM_STALE_MS);
  await ctx.db.transaction(async (tx) => {
    for (const row of await failStaleFilms(tx, storyId, staleBefore, FILM_FAILED_MESSAGE, now)) {
      await refundFilm({ ...ctx, db: tx }, row);
    }
  });
}

/**
 * The film's scenes, counted in one walk of the story (a page at a time), and what narrating them costs: nothing
 * with the offline voice (or none), per 1,000 characters else.
 */
async function filmPlan(ctx: FilmContext, userId: string, storyId: string, voices: StoryVoices | undefined) {
  const unitPrice = speechUnitPrice(ctx.providers.voice);
  let scenes = 0;
  let characters = 0;
  for await (const exchange of (await openBook(ctx, userId, storyId)).exchanges) {
    if (!exchange.videoKey && !exchange.imageKey) continue;
    scenes += 1;
    if (unitPrice > 0 && voices && exchange.narrator)
      characters += planSpeech(voices, exchange.narrator, exchange.speaker ?? null).characters;
  }
  return { scenes, characters, cost: unitPrice === 0 ? 0 : speechCost(unitPrice, characters) };
}

/** Who narrates the film: the story's voices when there is a voice provider; none makes it silent. */
const filmVoices = (ctx: FilmContext, userId: string, storyId: string) =>
  ctx.providers.voice ? storyVoices(ctx, userId, storyId) : Promise.resolve(undefined);

/** The newest film when it is finished, still in the gallery, and made from the story as it is now. */
async function upToDate(ctx: FilmContext, row: FilmRow | undefined, hash: () => Promise<string>) {
  if (row?.status !== "completed" || !row.contentHash || !row.mediaItemId) return undefined;
  if (row.contentHash !== (await hash())) return undefined;
  const film = await toFilm(ctx, row);
  return film.video_url ? film : undefined;
}

export async function filmStatus(ctx: FilmContext, userId: string, storyId: string): Promise<FilmResponse> {
  await ownedStoryRecord(ctx, userId, storyId);
  await expireStale(ctx, storyId);
  const row = await latestFilm(ctx.db, userId, storyId);
  const film = row ? await toFilm(ctx, row) : null;
  // While one is being made (the page polls), its cost is what it was charged: the story is not walked again.
  if (row?.status === "queued" || row?.status === "running") {
    return { success: true, film, cost: CREDIT_COSTS.film + fromTenths(row.chargedTenths) };
  }
  const voices = await filmVoices(ctx, userId, storyId);
  // The newest film shows the story as it is: making it again answers that film, at no cost.
  if (await upToDate(ctx, row, () => filmHash(ctx, userId, storyId, voices))) {
    return { success: true, film, cost: 0 };
  }
  const price =
    speechUnitPrice(ctx.providers.voice) > 0 ? await filmPlan(ctx, userId, storyId, voices) : { cost: 0 };
  return { success: true, film, cost: CREDIT_COSTS.film + price.cost };
}

export async function startFilm(ctx: FilmContext, userId: string, storyId: string): Promise<FilmResponse> {
  await ownedStoryRecord(ctx, userId, storyId);
  await expireStale(ctx, storyId);
  // A first check before any charge; the unique index below is the guard.
  const latest = await latestFilm(ctx.db, userId, storyId);
  if (latest?.status === "queued" || latest?.status === "running") throw new Conflict(FILM_BUSY_MESSAGE);
  const voices = await filmVoices(ctx, userId, storyId);
  const hash = await filmHash(ctx, userId, storyId, voices);
  const same = await upToDate(ctx, latest, async () => hash);
  if (same) return { success: true, film: same, cost: 0, reused: true };
  const price = await filmPlan(ctx, userId, storyId, voices);
  if (price.scenes === 0) throw new InvalidInput(NO_SCENES_MESSAGE);
  await ctx.jobs.ready(storyFilmJob);

  const id = randomUUID();
  const now = ctx.clock.now();
  /** Inserts the row and queues its job in the caller's transaction: the row exists exactly when its job does. */
  const queueIn = async (tx: Queryable, chargedTenths: number) => {
    let row: FilmRow;
    try {
      row = await insertFilm(tx, {
        id,
        userId,
        storyId,
        status: "queued",
        progress: 0,
        chargedTenths,
        contentHash: hash,
        step: "Waiting for a worker",
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      // The partial unique index allows one queued or running film per story, whatever races happen.
      if (isUniqueViolation(error)) throw new Conflict(FILM_BUSY_MESSAGE);
      throw error;
    }
    await ctx.jobs.send(storyFilmJob, { filmId: id }, { tx, id });
    return row;
  };

  const cost = CREDIT_COSTS.film + price.cost;
  if (price.cost === 0) {
    const row = await ctx.db.transaction((tx) => queueIn(tx, 0));
    return { success: true, film: await toFilm(ctx, row), cost };
  }
  // A racing film (409) rolls the transaction back with its settlement: payFor then refunds the whole charge.
  const { result } = await payFor(
    ctx,
    {
      userId,
      kind: "speech",
      quantity: Math.ceil(price.characters / SPEECH_CHARACTERS_PER_UNIT),
      description: `Film narration (${price.characters} characters)`,
      paidFor: id,
      refundDescription: "Refund: film narration failed",
    },
    async (paid, settle) => {
      const row = await ctx.db.transaction(async (tx) => {
        const inserted = await queueIn(tx, paid.chargedTenths);
        await settle(tx, 0);
        return inserted;
      });
      return { result: row };
    },
  );
  return { success: true, film: await toFilm(ctx, result), cost };
}
