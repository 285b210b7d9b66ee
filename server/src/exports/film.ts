// The story's film, as the owner sees it: start one (free with the offline voice: it reuses what was paid
// for; a vendor voice's narration is paid per 1,000 characters when it is started and refunded if the film
// fails; one at a time per story, enforced by the database), and read the newest one's status, progress,
// URL and captions.
import { randomUUID } from "node:crypto";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import type { Film, FilmResponse } from "@storyverse/contract/film";
import { SPEECH_CHARACTERS_PER_UNIT, speechCost } from "@storyverse/contract/voice";
import type { AppContext } from "../context";
import { payFor } from "../credits/paid-work";
import type { Queryable } from "../db/client";
import { ownedMediaUrl } from "../media/service";
import { Conflict, InvalidInput } from "../platform/errors";
import { storyVoices } from "../voice/narration";
import { speechUnitPrice } from "../voice/voices";
import type { Exchange } from "./book";
import { loadBook } from "./book";
import { FILM_FAILED_MESSAGE, filmScenes, narratedCharacters, refundFilm, storyFilmJob } from "./film-job";
import { type FilmRow, failStaleFilms, insertFilm, latestFilm } from "./film-repo";

type FilmContext = Pick<AppContext, "db" | "clock" | "storage" | "jobs" | "providers" | "log">;

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

/** What narrating these scenes costs: nothing with the offline voice (or none), per 1,000 characters else. */
async function narrationPrice(ctx: FilmContext, userId: string, storyId: string, scenes: Exchange[]) {
  const unitPrice = speechUnitPrice(ctx.providers.voice);
  if (unitPrice === 0) return { characters: 0, cost: 0 };
  const characters = narratedCharacters(await storyVoices(ctx, userId, storyId), scenes);
  return { characters, cost: speechCost(unitPrice, characters) };
}

export async function filmStatus(ctx: FilmContext, userId: string, storyId: string): Promise<FilmResponse> {
  const book = await loadBook(ctx, userId, storyId);
  await expireStale(ctx, storyId);
  const row = await latestFilm(ctx.db, userId, storyId);
  const price = await narrationPrice(ctx, userId, storyId, filmScenes(book));
  return { success: true, film: row ? await toFilm(ctx, row) : null, cost: CREDIT_COSTS.film + price.cost };
}

export async function startFilm(ctx: FilmContext, userId: string, storyId: string): Promise<FilmResponse> {
  const book = await loadBook(ctx, userId, storyId);
  const scenes = filmScenes(book);
  if (scenes.length === 0) throw new InvalidInput(NO_SCENES_MESSAGE);
  await expireStale(ctx, storyId);
  // A first check before any charge; the unique index below is the guard.
  const latest = await latestFilm(ctx.db, userId, storyId);
  if (latest?.status === "queued" || latest?.status === "running") throw new Conflict(FILM_BUSY_MESSAGE);
  const price = await narrationPrice(ctx, userId, storyId, scenes);
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
