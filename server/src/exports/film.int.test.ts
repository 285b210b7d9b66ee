import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { speechCost } from "@storyverse/contract/voice";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";
import { findAccount, ledgerSum } from "../credits/repo";
import { storyFilms } from "../db/schema";
import { probeDuration, runFfmpeg } from "../platform/ffmpeg";
import { FILM_STALE_MS } from "./film";
import { PAN_SECONDS } from "./film-job";
import { markdownToPlain } from "./text";

// The app of the describe block running now (each makes its own: offline voice, none, a vendor's).
let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "film-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (user: TestUser, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

/** A signed media URL, fetched the way the browser does. */
const fetchMedia = (url: string) => t.app.inject({ method: "GET", url });

const balance = async (user: TestUser) =>
  (await call(user, "GET", "/api/credit-balance")).json().remaining as number;

/** A turn of the story; a media turn waits for its picture or clip. */
async function turn(user: TestUser, storyId: string, prompt: string, mode: "chat" | "image" | "video") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  const messageId = res.json().message_id as string;
  if (mode === "chat") return { messageId, video_url: null };
  const status = await waitForMedia(t, user.token, `/api/stories/${storyId}/media-status/${messageId}`);
  expect(status.media_generation_completed).toBe(true);
  return { ...status, messageId };
}

/** The narrator's answer reworded (short words keep the film, and the test, short). */
async function reword(user: TestUser, storyId: string, messageId: string, content: string) {
  const res = await call(user, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content });
  expect(res.statusCode).toBe(200);
}

const GATE = "The gate creaks open.";
const TOWER =
  "You climb the tower stair by stair, counting every step out loud. At the top the wind tears at your cloak. " +
  '"Who goes there?" calls a voice from the dark. Far below, the lanterns of the harbour go out one by one.';

async function saveTo(name: string, url: string) {
  const media = await fetchMedia(url);
  expect(media.statusCode).toBe(200);
  const file = path.join(dir, name);
  await writeFile(file, media.rawPayload);
  return file;
}

/** Whether the file has an AAC audio stream, as ffmpeg reads its header. */
async function hasAudio(file: string) {
  const log = await runFfmpeg(t.config.ffmpeg.path, ["-i", file], { allowFailure: true });
  return /Stream #0:\d.*Audio: aac/.test(log);
}

/** Seconds of one stream of the file, decoded to the end (the last "time=" ffmpeg reports). */
async function decodedSeconds(file: string, stream: "0:v" | "0:a") {
  const log = await runFfmpeg(t.config.ffmpeg.path, ["-i", file, "-map", stream, "-f", "null", "-"]);
  const last = [...log.matchAll(/time=(\d+):(\d\d):(\d\d(?:\.\d+)?)/g)].at(-1)!;
  return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]);
}

type Cue = { start: number; end: number; text: string };

/** The film's WebVTT captions, read from captions_url. */
async function captionsOf(url: string): Promise<{ text: string; cues: Cue[] }> {
  const res = await fetchMedia(url);
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/vtt/);
  const seconds = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);
  const cues = [
    ...res.body.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})\n([^\n]+)/g),
  ].map((m) => ({
    start: seconds(m[1]!, m[2]!, m[3]!),
    end: seconds(m[4]!, m[5]!, m[6]!),
    text: m[7]!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
  }));
  return { text: res.body, cues };
}

/** The narrator's words of a story, plain and without quote marks (a quote is spoken without them). */
async function narration(user: TestUser, storyId: string) {
  const { messages } = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json() as {
    messages: { role: string; content: string }[];
  };
  const plain = (text: string) => text.replace(/["“”]/g, "").replace(/\s+/g, " ").trim();
  return messages.filter((m) => m.role === "assistant").map((m) => plain(markdownToPlain(m.content)));
}

/** How bright (0..255) the column x of a 1280x720 frame at `at` seconds of the film is, on average. */
async function edgeBrightness(file: string, at: number) {
  const frame = path.join(dir, `frame-${at}.png`);
  await runFfmpeg(t.config.ffmpeg.path, ["-y", "-ss", String(at), "-i", file, "-frames:v", "1", frame]);
  const { data, info } = await sharp(frame).raw().toBuffer({ resolveWithObject: true });
  const column = (x: number) => {
    let sum = 0;
    for (let y = 0; y < info.height; y++) {
      const i = (y * info.width + x) * info.channels;
      sum += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
    }
    return sum / info.height;
  };
  return { left: column(1), right: column(info.width - 2) };
}

async function waitForFilm(user: TestUser, storyId: string) {
  const deadline = Date.now() + 240_000;
  const seen: number[] = [];
  const steps: string[] = [];
  while (Date.now() < deadline) {
    const body = (await call(user, "GET", `/api/stories/${storyId}/film`)).json();
    seen.push(body.film.progress);
    if (body.film.step) steps.push(body.film.step);
    if (body.film.status === "completed" || body.film.status === "failed") {
      return { film: body.film, seen, steps };
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("the film did not finish in time");
}

describe("the story's film", () => {
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("joins clips and scene pans in order into one narrated MP4, one frame size, with timed captions", async () => {
    const user = await createUser(t);
    const storyId = (await call(user, "POST", "/api/stories", { title: "Reel" })).json().story.id as string;
    const clip = await turn(user, storyId, "I open the gate", "video");
    await reword(user, storyId, clip.messageId, GATE);
    const wait = await turn(user, storyId, "I wait", "chat");
    await reword(user, storyId, wait.messageId, "Nothing happens.");
    const tower = await turn(user, storyId, "I climb the tower", "image");
    await reword(user, storyId, tower.messageId, TOWER);
    const clipSeconds = await probeDuration(t.config.ffmpeg.path, await saveTo("clip.mp4", clip.video_url!));

    // The offline voice is free: so is the film.
    const before = (await call(user, "GET", `/api/stories/${storyId}/film`)).json();
    expect(before).toEqual({ success: true, film: null, cost: 0 });
    const credits = (await call(user, "GET", "/api/quota")).json().remaining;

    const started = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ film: { status: "queued", captions_url: null }, cost: 0 });
    // One film at a time per story.
    const again = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/already being made/);

    const { film, seen, steps } = await waitForFilm(user, storyId);
    expect(film).toMatchObject({ status: "completed", progress: 100, step: null, error: null });
    // Its progress moved while it was made, with the step it was on, scene by scene.
    expect(seen.some((progress) => progress > 1 && progress < 100)).toBe(true);
    expect(steps.some((step) => /^(Narrating|Filming) scene [12] of 2$/.test(step))).toBe(true);
    expect((await call(user, "GET", "/api/quota")).json().remaining).toBe(credits);

    const file = await saveTo("film.mp4", film.video_url);
    const duration = await probeDuration(t.config.ffmpeg.path, file);
    // Each scene is held for its narration: at least as long as the clip and the 4 s pan together.
    expect(duration).toBeGreaterThan(clipSeconds + PAN_SECONDS - 0.1);

    // A soundtrack as long as the pictures.
    expect(await hasAudio(file)).toBe(true);
    const video = await decodedSeconds(file, "0:v");
    expect(Math.abs((await decodedSeconds(file, "0:a")) - video)).toBeLessThan(0.15);

    const log = await runFfmpeg(
      t.config.ffmpeg.path,
      ["-i", file, "-map", "0:v", "-vf", "showinfo", "-f", "null", "-"],
      { maxLogChars: 50_000_000 },
    );
    const sizes = new Set([...log.matchAll(/ s:(\d+x\d+) /g)].map((m) => m[1]));
    expect([...sizes]).toEqual(["1280x720"]);
    expect(log).toMatch(/Subtitle: mov_text/);

    // Captions: WebVTT beside the film, whole sentences of the narration, in order and within the film.
    const { text, cues } = await captionsOf(film.captions_url);
    expect(text.startsWith("WEBVTT\n")).toBe(true);
    const words = await narration(user, storyId);
    expect(cues.length).toBeGreaterThan(2);
    for (const [index, cue] of cues.entries()) {
      expect(words.some((message) => message.includes(cue.text.replace(/["“”]/g, "")))).toBe(true);
      expect(cue.text).toMatch(/[.!?…]["”’)]*$/);
      expect(cue.end).toBeGreaterThan(cue.start);
      expect(cue.end).toBeLessThanOrEqual(duration + 0.05);
      if (index > 0) expect(cue.start).toBeGreaterThanOrEqual(cues[index - 1]!.end);
    }
    // The picture's scene (the last) is spoken for longer than the pan alone would last.
    const lastScene = words.at(-1)!;
    const spokenOverPicture = cues.filter((cue) => lastScene.includes(cue.text.replace(/["“”]/g, "")));
    expect(spokenOverPicture.at(-1)!.end - spokenOverPicture[0]!.start).toBeGreaterThan(PAN_SECONDS);

    // The clip fills the frame: its left and right edges are picture, not black bars.
    const edges = await edgeBrightness(file, Math.min(1, clipSeconds / 2));
    expect(edges.left).toBeGreaterThan(12);
    expect(edges.right).toBeGreaterThan(12);

    const gallery = (await call(user, "GET", "/api/gallery?type=video")).json();
    const items = (gallery.items ?? gallery.media ?? gallery) as {
      id: string;
      type: string;
      story_id: string;
    }[];
    expect(
      items.some((item) => item.id === film.media_id && item.type === "video" && item.story_id === storyId),
    ).toBe(true);

    // Asked again with nothing changed: the same film at once, no second job, nothing charged.
    expect((await call(user, "GET", `/api/stories/${storyId}/film`)).json().cost).toBe(0);
    const same = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ reused: true, cost: 0, film: { id: film.id, status: "completed" } });
    const films = await t.database.executeSql("select id from story_films where story_id = $1", [storyId]);
    expect(films.rows).toHaveLength(1);

    // Once the story changed, another film is made.
    await reword(user, storyId, wait.messageId, "Nothing happens, still.");
    const next = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(next.statusCode).toBe(202);
    expect(next.json().film.id).not.toBe(film.id);
    expect((await waitForFilm(user, storyId)).film.status).toBe("completed");
  }, 300_000);

  it("lets only the owner film a story, and refuses a story with nothing to show", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    const storyId = (await call(owner, "POST", "/api/stories", { title: "Words only" })).json().story
      .id as string;
    await turn(owner, storyId, "I speak", "chat");
    for (const method of ["GET", "POST"] as const) {
      expect((await call(stranger, method, `/api/stories/${storyId}/film`)).statusCode).toBe(404);
    }
    const empty = await call(owner, "POST", `/api/stories/${storyId}/film`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe("This story has no pictures or clips to film yet.");
    expect((await call(owner, "GET", `/api/stories/${storyId}/film`)).json().film).toBeNull();
  });
});

describe("the film with narration off (TTS_PROVIDER=none)", () => {
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true, env: { TTS_PROVIDER: "none" } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("is silent, a still panned for 4 s, captioned as before", async () => {
    const user = await createUser(t);
    const storyId = (await call(user, "POST", "/api/stories", { title: "Quiet" })).json().story.id as string;
    const tower = await turn(user, storyId, "I climb the tower", "image");
    await reword(user, storyId, tower.messageId, TOWER);
    expect((await call(user, "POST", `/api/stories/${storyId}/film`)).statusCode).toBe(202);
    const { film } = await waitForFilm(user, storyId);
    expect(film.status).toBe("completed");
    const file = await saveTo("quiet.mp4", film.video_url);
    expect(await hasAudio(file)).toBe(false);
    expect(Math.abs((await probeDuration(t.config.ffmpeg.path, file)) - PAN_SECONDS)).toBeLessThan(0.3);
    const { cues } = await captionsOf(film.captions_url);
    expect(cues).toHaveLength(1);

    // Deleting the story takes the film's captions with it; the video stays in the gallery.
    expect((await call(user, "DELETE", `/api/stories/${storyId}`)).statusCode).toBe(200);
    expect((await fetchMedia(film.captions_url)).statusCode).toBe(404);
    expect((await fetchMedia(film.video_url)).statusCode).toBe(200);
  }, 120_000);
});

describe("the film with a vendor's voice (OpenAI speech format)", () => {
  let fake: OpenAIFake;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    t = await createTestApp({
      tickingClock: true,
      env: { TTS_PROVIDER: "openai", TTS_API_KEY: fake.apiKey, TTS_BASE_URL: fake.baseUrl },
    });
  });
  afterAll(async () => {
    await t.cleanup();
    await fake.close();
  });

  it("charges the narration per 1,000 characters when started, and gives it back when the vendor fails", async () => {
    const user = await createUser(t);
    const storyId = (await call(user, "POST", "/api/stories", { title: "Paid" })).json().story.id as string;
    const tower = await turn(user, storyId, "I climb the tower", "image");
    await reword(user, storyId, tower.messageId, TOWER.repeat(4));
    const characters = (await narration(user, storyId)).join("").length;
    const price = (await call(user, "GET", `/api/stories/${storyId}/film`)).json().cost as number;
    // About the narrator's words (quotes and spacing aside), at the narration's price.
    expect(price).toBe(speechCost(0.5, characters));
    expect(price).toBeGreaterThan(0);

    const start = await balance(user);
    const started = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(started.statusCode).toBe(202);
    expect(started.json().cost).toBe(price);
    expect(await balance(user)).toBe(start - price);
    const made = await waitForFilm(user, storyId);
    expect(made.film.status).toBe("completed");
    expect(fake.requests.some((request) => request.path === "/v1/audio/speech")).toBe(true);
    expect(await hasAudio(await saveTo("paid.mp4", made.film.video_url))).toBe(true);
    expect(await balance(user)).toBe(start - price);

    // The same film asked for again: shown again, never charged twice.
    const same = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ reused: true, cost: 0, film: { id: made.film.id } });
    expect(await balance(user)).toBe(start - price);

    // A changed story is filmed (and charged) again; the vendor failing gives it back.
    await reword(user, storyId, tower.messageId, TOWER.repeat(4).replace("harbour", "harbors"));
    const repriced = (await call(user, "GET", `/api/stories/${storyId}/film`)).json().cost as number;
    expect(repriced).toBe(price);
    fake.failNext({ status: 400, message: "Invalid voice." }, "/audio/speech");
    expect((await call(user, "POST", `/api/stories/${storyId}/film`)).statusCode).toBe(202);
    expect(await balance(user)).toBe(start - 2 * price);
    const failed = await waitForFilm(user, storyId);
    expect(failed.film.status).toBe("failed");
    expect(await balance(user)).toBe(start - price);
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
  }, 180_000);

  it("refunds a paid film whose worker died, when it is next looked at", async () => {
    const user = await createUser(t);
    const storyId = (await call(user, "POST", "/api/stories", { title: "Lost" })).json().story.id as string;
    const tower = await turn(user, storyId, "I climb the tower", "image");
    await reword(user, storyId, tower.messageId, TOWER);
    const start = await balance(user);
    // The worker stalls in the vendor's speech call and reports nothing more, as if it had died there.
    fake.failNext("hang", "/audio/speech");
    // Only this film's speech call counts (the earlier films' are in the fake's log too).
    const earlierRequests = fake.requests.length;
    const started = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(started.statusCode).toBe(202);
    const price = started.json().cost as number;
    expect(await balance(user)).toBe(start - price);
    await vi.waitFor(
      () =>
        expect(
          fake.requests.slice(earlierRequests).some((request) => request.path === "/v1/audio/speech"),
        ).toBe(true),
      {
        timeout: 60_000,
        interval: 100,
      },
    );
    // Its last report was long ago.
    await t.database.db
      .update(storyFilms)
      .set({ updatedAt: new Date(t.clock.now().getTime() - FILM_STALE_MS - 60_000) })
      .where(eq(storyFilms.id, started.json().film.id));
    const body = (await call(user, "GET", `/api/stories/${storyId}/film`)).json();
    expect(body.film.status).toBe("failed");
    expect(await balance(user)).toBe(start);
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
  }, 120_000);
});
