// Makes the story's film: every scene in story order, a clip as it is and a still picture as a slow
// pan, scaled and padded to one frame size and rate, joined into one H.264 MP4 with the narrator's words
// as a subtitle track (mov_text; players show it as captions). The result becomes a gallery video.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { AppContext } from "../context";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { saveVideo } from "../media/service";
import { type Book, type Exchange, loadBook } from "./book";
import { probeDuration, runFfmpeg } from "./ffmpeg";
import { findFilm, updateFilm } from "./film-repo";
import { markdownToPlain } from "./text";

export const FILM_WIDTH = 1280;
export const FILM_HEIGHT = 720;
export const FILM_FPS = 24;
/** How long a still scene is shown, panning across it. */
export const PAN_SECONDS = 4;
export const FILM_FAILED_MESSAGE = "The film could not be made. Please try again.";
const CAPTION_MAX_LENGTH = 220;

export const storyFilmJob: JobSpec<{ filmId: string }> = {
  name: "story-film",
  payload: z.object({ filmId: z.uuid() }),
  retryLimit: 1,
  retryDelaySeconds: 10,
  retryBackoff: false,
  expireInSeconds: 30 * 60,
};

type FilmContext = Pick<AppContext, "db" | "clock" | "storage" | "log" | "config">;

/** The scenes a film shows: exchanges with a finished clip or picture, in story order. */
export function filmScenes(book: Book): Exchange[] {
  return book.exchanges.filter((exchange) => exchange.videoKey || exchange.imageKey);
}

const encodeArgs = [
  "-an",
  "-c:v",
  "libx264",
  "-preset",
  "veryfast",
  "-crf",
  "23",
  "-pix_fmt",
  "yuv420p",
  "-r",
  String(FILM_FPS),
  "-threads",
  "2",
];

// Every segment leaves with the same size, pixel aspect, rate and format, so they join without re-encoding.
const fitFrame = `scale=${FILM_WIDTH}:${FILM_HEIGHT}:force_original_aspect_ratio=decrease,pad=${FILM_WIDTH}:${FILM_HEIGHT}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${FILM_FPS}`;
const panWidth = Math.round(FILM_WIDTH * 1.125);
const panHeight = Math.round(FILM_HEIGHT * 1.125);
const panFrame = `scale=${panWidth}:${panHeight}:force_original_aspect_ratio=increase,crop=${panWidth}:${panHeight},crop=${FILM_WIDTH}:${FILM_HEIGHT}:x='(in_w-out_w)*t/${PAN_SECONDS}':y='(in_h-out_h)/2',setsar=1`;

const extensionOf = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? "bin";

function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

function caption(exchange: Exchange): string {
  const text = markdownToPlain(exchange.narrator ?? exchange.player ?? "").replace(/\s+/g, " ");
  return text.length > CAPTION_MAX_LENGTH ? `${text.slice(0, CAPTION_MAX_LENGTH - 1).trimEnd()}…` : text;
}

/** Renders the scenes into one faststart MP4 (ffmpeg -movflags +faststart): the film's bytes. */
export async function renderFilm(
  ctx: FilmContext,
  scenes: Exchange[],
  dir: string,
  onProgress: (done: number) => Promise<void>,
): Promise<Buffer> {
  const ffmpeg = ctx.config.ffmpeg.path;
  const segments: string[] = [];
  const captions: string[] = [];
  let at = 0;
  for (const [index, scene] of scenes.entries()) {
    const segment = path.join(dir, `segment-${index}.mp4`);
    if (scene.videoKey) {
      const input = path.join(dir, `input-${index}.${extensionOf(scene.videoKey)}`);
      await writeFile(input, await ctx.storage.read(scene.videoKey));
      await runFfmpeg(ffmpeg, ["-y", "-i", input, "-vf", fitFrame, ...encodeArgs, segment]);
    } else if (scene.imageKey) {
      const input = path.join(dir, `input-${index}.${extensionOf(scene.imageKey)}`);
      await writeFile(input, await ctx.storage.read(scene.imageKey));
      await runFfmpeg(ffmpeg, [
        "-y",
        "-loop",
        "1",
        "-framerate",
        String(FILM_FPS),
        "-t",
        String(PAN_SECONDS),
        "-i",
        input,
        "-vf",
        panFrame,
        ...encodeArgs,
        segment,
      ]);
    }
    const length = await probeDuration(ffmpeg, segment);
    const words = caption(scene);
    if (words)
      captions.push(`${captions.length + 1}\n${srtTime(at)} --> ${srtTime(at + length)}\n${words}\n`);
    at += length;
    segments.push(segment);
    await onProgress(index + 1);
  }

  const list = path.join(dir, "segments.txt");
  await writeFile(list, segments.map((file) => `file '${path.basename(file)}'`).join("\n"));
  const subtitles = path.join(dir, "captions.srt");
  await writeFile(subtitles, captions.join("\n"));
  const output = path.join(dir, "film.mp4");
  const withCaptions = captions.length > 0;
  await runFfmpeg(ffmpeg, [
    "-y",
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    list,
    ...(withCaptions
      ? ["-i", subtitles, "-map", "0:v", "-map", "1:s", "-c:s", "mov_text", "-metadata:s:s:0", "language=eng"]
      : []),
    "-c:v",
    "copy",
    "-movflags",
    "+faststart",
    output,
  ]);
  return readFile(output);
}

export async function makeFilm(ctx: FilmContext, payload: { filmId: string }, attempt: JobAttempt) {
  const film = await findFilm(ctx.db, payload.filmId);
  if (!film || (film.status !== "queued" && film.status !== "running")) return;
  await updateFilm(ctx.db, film.id, { status: "running", progress: 1, updatedAt: ctx.clock.now() });
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-film-"));
  try {
    const book = await loadBook(ctx, film.userId, film.storyId);
    const scenes = filmScenes(book);
    if (scenes.length === 0) throw new Error("no scenes to film");
    const data = await renderFilm(ctx, scenes, dir, async (done) => {
      // The join at the end is quick: the scenes are 95% of the work.
      const progress = Math.max(1, Math.floor((done / scenes.length) * 95));
      await updateFilm(ctx.db, film.id, { progress, updatedAt: ctx.clock.now() });
    });
    const item = await saveVideo(
      ctx,
      ctx.db,
      {
        userId: film.userId,
        source: "story",
        storyId: film.storyId,
        storyTitle: book.title,
        messageId: null,
        description: `The film of "${book.title}"`,
      },
      data,
      book.coverKey,
    );
    await updateFilm(ctx.db, film.id, {
      status: "completed",
      progress: 100,
      error: null,
      mediaItemId: item.id,
      updatedAt: ctx.clock.now(),
    });
  } catch (error) {
    ctx.log.warn({ err: error, filmId: film.id, attempt: attempt.retryCount }, "film failed");
    if (!attempt.isLastAttempt) throw error;
    await updateFilm(ctx.db, film.id, {
      status: "failed",
      error: FILM_FAILED_MESSAGE,
      updatedAt: ctx.clock.now(),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
