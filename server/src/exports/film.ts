// The story's film, as the owner sees it: start one (free: it reuses what was paid for; one at a time per
// story, enforced by the database), and read the newest one's status, progress and URL.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import type { Film, FilmResponse } from "@storyverse/contract/film";
import type { AppContext } from "../context";
import { BadRequest, Conflict } from "../http/errors";
import { ownedMediaUrl } from "../media/service";
import { loadBook } from "./book";
import { FILM_FAILED_MESSAGE, filmScenes, storyFilmJob } from "./film-job";
import { type FilmRow, failStaleFilms, insertFilm, latestFilm, updateFilm } from "./film-repo";

type FilmContext = Pick<AppContext, "db" | "clock" | "storage" | "jobs">;

/** A film that has not reported for this long lost its worker: it counts as failed and frees the story. */
export const FILM_STALE_MS = 40 * 60 * 1000;
export const FILM_BUSY_MESSAGE = "A film of this story is already being made. Please wait for it to finish.";
export const NO_SCENES_MESSAGE = "This story has no pictures or clips to film yet.";

async function toFilm(ctx: Pick<AppContext, "db" | "storage">, row: FilmRow): Promise<Film> {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    error: row.error,
    video_url: row.mediaItemId ? await ownedMediaUrl(ctx, row.userId, row.mediaItemId) : null,
    media_id: row.mediaItemId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
};

async function expireStale(ctx: Pick<AppContext, "db" | "clock">, storyId: string) {
  const now = ctx.clock.now();
  await failStaleFilms(ctx.db, storyId, new Date(now.getTime() - FILM_STALE_MS), FILM_FAILED_MESSAGE, now);
}

export async function filmStatus(ctx: FilmContext, userId: string, storyId: string): Promise<FilmResponse> {
  await loadBook(ctx, userId, storyId);
  await expireStale(ctx, storyId);
  const row = await latestFilm(ctx.db, userId, storyId);
  return { success: true, film: row ? await toFilm(ctx, row) : null, cost: CREDIT_COSTS.film };
}

export async function startFilm(ctx: FilmContext, userId: string, storyId: string): Promise<FilmResponse> {
  const book = await loadBook(ctx, userId, storyId);
  if (filmScenes(book).length === 0) throw new BadRequest(NO_SCENES_MESSAGE);
  await expireStale(ctx, storyId);
  const now = ctx.clock.now();
  let row: FilmRow;
  try {
    row = await insertFilm(ctx.db, {
      userId,
      storyId,
      status: "queued",
      progress: 0,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // The partial unique index allows one queued or running film per story, whatever races happen.
    if (isUniqueViolation(error)) throw new Conflict(FILM_BUSY_MESSAGE);
    throw error;
  }
  try {
    await ctx.jobs.send(storyFilmJob, { filmId: row.id });
  } catch (error) {
    // Not queued means never made: say so rather than leave the story blocked.
    await updateFilm(ctx.db, row.id, {
      status: "failed",
      error: FILM_FAILED_MESSAGE,
      updatedAt: ctx.clock.now(),
    });
    throw error;
  }
  return { success: true, film: await toFilm(ctx, row), cost: CREDIT_COSTS.film };
}
