import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { fetchMedia, waitForMedia } from "../../test/media";
import { probeDuration, runFfmpeg } from "./ffmpeg";
import { PAN_SECONDS } from "./film-job";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
  dir = await mkdtemp(path.join(os.tmpdir(), "film-test-"));
});
afterAll(async () => {
  await t.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function turn(user: TestUser, storyId: string, prompt: string, mode: "chat" | "image" | "video") {
  const res = await call(user, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode });
  if (mode === "chat") return null;
  const status = await waitForMedia(
    t,
    user.token,
    `/api/stories/${storyId}/media-status/${res.json().message_id}`,
  );
  expect(status.media_generation_completed).toBe(true);
  return status;
}

async function saveTo(name: string, url: string) {
  const media = await fetchMedia(t, url);
  expect(media.status).toBe(200);
  const file = path.join(dir, name);
  await writeFile(file, media.body);
  return file;
}

async function waitForFilm(user: TestUser, storyId: string) {
  const deadline = Date.now() + 240_000;
  const seen: number[] = [];
  while (Date.now() < deadline) {
    const body = (await call(user, "GET", `/api/stories/${storyId}/film`)).json();
    seen.push(body.film.progress);
    if (body.film.status === "completed" || body.film.status === "failed") return { film: body.film, seen };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("the film did not finish in time");
}

describe("the story's film", () => {
  it("joins clips and scene pans in order into one MP4 of the summed length, one frame size, with captions", async () => {
    const user = await createUser(t);
    const storyId = (await call(user, "POST", "/api/stories", { title: "Reel" })).json().story.id as string;
    const clip = await turn(user, storyId, "I open the gate", "video");
    await turn(user, storyId, "I wait", "chat");
    await turn(user, storyId, "I climb the tower", "image");
    const clipSeconds = await probeDuration(t.config.ffmpeg.path, await saveTo("clip.mp4", clip!.video_url!));

    const before = (await call(user, "GET", `/api/stories/${storyId}/film`)).json();
    expect(before).toEqual({ success: true, film: null, cost: 0 });
    const credits = (await call(user, "GET", "/api/quota")).json().remaining;

    const started = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(started.statusCode).toBe(202);
    expect(started.json().film.status).toBe("queued");
    // One film at a time per story.
    const again = await call(user, "POST", `/api/stories/${storyId}/film`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/already being made/);

    const { film } = await waitForFilm(user, storyId);
    expect(film).toMatchObject({ status: "completed", progress: 100, error: null });
    // Free: the credits are as they were.
    expect((await call(user, "GET", "/api/quota")).json().remaining).toBe(credits);

    const file = await saveTo("film.mp4", film.video_url);
    const duration = await probeDuration(t.config.ffmpeg.path, file);
    expect(Math.abs(duration - (clipSeconds + PAN_SECONDS))).toBeLessThan(0.5);

    const log = await runFfmpeg(
      t.config.ffmpeg.path,
      ["-i", file, "-map", "0:v", "-vf", "showinfo", "-f", "null", "-"],
      {
        maxLogChars: 50_000_000,
      },
    );
    const sizes = new Set([...log.matchAll(/ s:(\d+x\d+) /g)].map((m) => m[1]));
    expect([...sizes]).toEqual(["1280x720"]);
    const frames = [...log.matchAll(/ s:\d+x\d+ /g)].length;
    expect(frames).toBeGreaterThan((clipSeconds + PAN_SECONDS - 0.5) * 24);
    expect(log).toMatch(/Subtitle: mov_text/);

    const gallery = (await call(user, "GET", "/api/gallery?type=video")).json();
    const items = (gallery.items ?? gallery.media ?? gallery) as {
      id: string;
      type: string;
      story_id: string;
    }[];
    expect(
      items.some((item) => item.id === film.media_id && item.type === "video" && item.story_id === storyId),
    ).toBe(true);

    // Once finished, another film may be made.
    expect((await call(user, "POST", `/api/stories/${storyId}/film`)).statusCode).toBe(202);
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
