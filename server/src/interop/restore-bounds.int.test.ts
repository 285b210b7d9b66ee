// The red team's restore findings replayed (issue #39: T4-1, T4-2, T4-4, "Backups lose branches"), through the
// HTTP API on a real database, each at a scale that keeps the test fast (said at each):
// - a clip that only claims to be an MP4 by its first bytes is refused, and a real one is kept;
// - an archive that would unpack past its bound (the red team's 1 MB -> 1,000 MB, and its 64 MB document of
//   200,000 messages) is a 413 before anything is kept, and so is one past the account's storage quota;
// - a long message document is written in batches while another player's request answers promptly;
// - a restore killed midway shows no story, and the sweep removes its files, rows and upload folder;
// - a backup of a story with branches and checkpoints restores them all, on the branch the story showed.
import { randomBytes } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { sampleMp4, samplePng } from "../../test/fakes/media";
import { uploadBackup } from "../../test/restore-backup";
import type { AppContext } from "../context";
import { setStorageQuota } from "../media/quota";
import { encodeMp4 } from "../providers/offline/mp4";
import { findRestore, markQueued, runRestore, sweepRestores, uploadsDir } from "./restore-job";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type Method = "GET" | "POST" | "PUT";
const call = (user: TestUser, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

const upload = (user: TestUser, data: Buffer) => uploadBackup(t, user, data);

type Restore = {
  id: string;
  status: string;
  progress: number;
  story: { id: string; title: string; message_count: number } | null;
  error: string | null;
  preview: Record<string, number | string>;
};

const poll = async (user: TestUser, id: string): Promise<Restore> => {
  const res = await call(user, "GET", `/api/stories/restore/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().restore;
};

async function waitForEnd(user: TestUser, id: string, onPoll?: (restore: Restore) => Promise<void>) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const restore = await poll(user, id);
    if (restore.status === "completed" || restore.status === "failed") return restore;
    await onPoll?.(restore);
    if (Date.now() > deadline) throw new Error(`restore still ${restore.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Upload, confirm, wait: the restore as it ended. */
async function restoreAll(user: TestUser, data: Buffer): Promise<Restore> {
  const res = await upload(user, data);
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().restore.id as string;
  const confirmed = await call(user, "POST", `/api/stories/restore/${id}/confirm`);
  expect(confirmed.statusCode, confirmed.body).toBe(202);
  return waitForEnd(user, id);
}

function zipOf(files: Record<string, Buffer | string>, compress = true): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(files)) zip.addBuffer(Buffer.from(data), name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A format-2 archive's JSON: `exchanges` exchanges, and the media given. */
function archive(exchanges: number, media: object[] = [], extra: { video?: string } = {}) {
  const messages = [];
  for (let i = 0; i < exchanges; i++) {
    messages.push(
      {
        id: `u${i}`,
        role: "user",
        content: `Turn ${i}`,
        mode: "chat",
        created_at: at(2 * i),
        updated_at: at(2 * i),
      },
      {
        id: `a${i}`,
        role: "assistant",
        content: `The story goes on, turn ${i}.`,
        mode: extra.video && i === 0 ? "video" : "chat",
        media_status: extra.video && i === 0 ? "completed" : "none",
        video: extra.video && i === 0 ? extra.video : null,
        created_at: at(2 * i + 1),
        updated_at: at(2 * i + 1),
      },
    );
  }
  return {
    format: "storyverse-story",
    version: 2,
    exported_at: at(0),
    story: { title: "Long Road", created_at: at(0), updated_at: at(0) },
    messages,
    media,
    cards: [],
  };
}

async function counts() {
  const { rows } = await t.database.executeSql(
    `select (select count(*)::int from stories) as stories, (select count(*)::int from chat_messages) as messages,
            (select count(*)::int from media_items) as media`,
  );
  return rows[0];
}

const storyTitles = async (user: TestUser) =>
  ((await call(user, "GET", "/api/stories")).json().stories as { title: string }[]).map((s) => s.title);

describe("restores are bounded (T4-1)", () => {
  it("refuses a clip that only claims to be an MP4 by its first bytes, and keeps a real one", async () => {
    const user = await createUser(t);
    const clip = (path: string) => [{ path, kind: "video", message: "a0", created_at: at(1) }];
    const before = await counts();
    const lying = await restoreAll(
      user,
      await zipOf({
        "storyverse-story.json": JSON.stringify(
          archive(1, clip("media/videos/0001.mp4"), { video: "media/videos/0001.mp4" }),
        ),
        // The red team's clip: a real ftyp box, then no movie at all (here 4 KB of filler; theirs was 1,000 MB).
        "media/videos/0001.mp4": Buffer.concat([sampleMp4(), Buffer.alloc(4096, 0x41)]),
      }),
    );
    expect(lying).toMatchObject({ status: "failed", story: null });
    expect(lying.error).toBe(
      '"media/videos/0001.mp4" in the archive is not a video this app can play: it is not a whole MP4 or WebM.',
    );
    expect(await counts()).toEqual(before);
    expect((await call(user, "GET", "/api/media/usage")).json()).toMatchObject({ usedBytes: 0 });

    const frame = new Uint8Array(16 * 16 * 4).fill(90);
    const real = await encodeMp4({
      width: 16,
      height: 16,
      frameRate: 4,
      quantizationParameter: 30,
      frames: [frame, frame],
    });
    const kept = await restoreAll(
      user,
      await zipOf({
        "storyverse-story.json": JSON.stringify(
          archive(1, clip("media/videos/0001.mp4"), { video: "media/videos/0001.mp4" }),
        ),
        "media/videos/0001.mp4": real,
      }),
    );
    expect(kept).toMatchObject({ status: "completed", error: null });
    const messages = (await call(user, "GET", `/api/stories/${kept.story!.id}/messages`)).json().messages;
    expect(messages[1].video_url).toBeTruthy();
  }, 60_000);

  it("answers 413 for an archive that would unpack past its bound, before keeping anything", async () => {
    const user = await createUser(t);
    const before = await counts();
    // The red team's 1 MB archive unpacked to 1,000 MB; here 20 MB of zeros deflate to about 20 KB (the same ratio).
    const bomb = await zipOf({
      "storyverse-story.json": JSON.stringify(
        archive(1, [{ path: "media/images/0001.png", kind: "image", created_at: at(1) }]),
      ),
      "media/images/0001.png": Buffer.alloc(20 * 1024 * 1024),
    });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const res = await upload(user, bomb);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().detail).toMatch(
      /^The archive unpacks to more than 9 MB, too much for a backup of 1 MB/,
    );
    // The red team's document: 200,000 messages, 64 MB of JSON, about 1 MB deflated (here in full).
    const document = await zipOf({ "storyverse-story.json": JSON.stringify(archive(100_000)) });
    const big = await upload(user, document);
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json().code).toBe("payload_too_large");
    expect(await counts()).toEqual(before);
    const { rows } = await t.database.executeSql(
      "select count(*)::int as n from story_restores where user_id = $1",
      [user.userId],
    );
    expect(rows[0]).toEqual({ n: 0 });
  }, 60_000);

  it("answers 413 for media past the account's storage quota, before keeping anything", async () => {
    const user = await createUser(t);
    await setStorageQuota(t.ctx.db, user.userId, 1);
    // Noise does not compress: a 900 x 900 picture is about 2.4 MB, past a 1 MB quota.
    const noise = randomBytes(900 * 900 * 3);
    const { default: sharp } = await import("sharp");
    const picture = await sharp(noise, { raw: { width: 900, height: 900, channels: 3 } })
      .png()
      .toBuffer();
    expect(picture.length).toBeGreaterThan(1024 * 1024);
    const before = await counts();
    const res = await upload(
      user,
      await zipOf(
        {
          "storyverse-story.json": JSON.stringify(
            archive(1, [{ path: "media/images/0001.png", kind: "image", created_at: at(1) }]),
          ),
          "media/images/0001.png": picture,
        },
        false,
      ),
    );
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: "storage_full" });
    expect(res.json().detail).toMatch(/^This needs 2.3 MB but your media storage has 1(.0)? MB left/);
    expect(await counts()).toEqual(before);
    // The control: the same archive restores with room for it.
    const small = await samplePng(32, 32, "#ffaa00");
    const fits = await restoreAll(
      user,
      await zipOf({
        "storyverse-story.json": JSON.stringify(
          archive(1, [{ path: "media/images/0001.png", kind: "image", created_at: at(1) }]),
        ),
        "media/images/0001.png": small,
      }),
    );
    expect(fits.status).toBe("completed");
  }, 60_000);
});

describe("a restore runs as a job in batches (T4-2)", () => {
  it("writes a long story in batches while another player's balance answers within a second, and shows it only when whole", async () => {
    const user = await createUser(t);
    const bystander = await createUser(t);
    // The red team's document held 200,000 messages; 10,000 here (20 batches of 500) keep the test short.
    const res = await upload(user, await zipOf({ "storyverse-story.json": JSON.stringify(archive(5_000)) }));
    expect(res.statusCode, res.body).toBe(200);
    const restore = res.json().restore as Restore;
    expect(restore.preview).toMatchObject({
      title: "Long Road (restored)",
      exchanges: 5_000,
      branches: 1,
      media: 0,
    });
    expect(await storyTitles(user)).toEqual([]);

    let slowest = 0;
    let answered = 0;
    let running = true;
    const bystanding = (async () => {
      while (running) {
        const started = performance.now();
        const balance = await call(bystander, "GET", "/api/credit-balance");
        slowest = Math.max(slowest, performance.now() - started);
        expect(balance.statusCode).toBe(200);
        answered += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const partway: number[] = [];
    const confirmed = await call(user, "POST", `/api/stories/restore/${restore.id}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(202);
    const done = await waitForEnd(user, restore.id, async (now) => {
      if (now.progress > 40 && now.progress < 100) {
        partway.push(now.progress);
        // Half written, the story is nowhere to be seen: it shows only once the restore has completed (the
        // last batch may commit between this poll and the list; it makes the story visible and marks the
        // restore completed in one transaction).
        const titles = await storyTitles(user);
        if (titles.length > 0) expect((await poll(user, restore.id)).status).toBe("completed");
      }
    });
    running = false;
    await bystanding;
    expect(done).toMatchObject({ status: "completed", progress: 100 });
    expect(done.story).toMatchObject({ title: "Long Road (restored)", message_count: 10_000 });
    expect(await storyTitles(user)).toEqual(["Long Road (restored)"]);
    // Batches committed one by one (progress seen between them), and the other player was never held up.
    expect(new Set(partway).size).toBeGreaterThan(1);
    expect(answered).toBeGreaterThan(5);
    expect(slowest).toBeLessThan(1_000);
    // Confirming twice is refused.
    expect((await call(user, "POST", `/api/stories/restore/${restore.id}/confirm`)).statusCode).toBe(409);
  }, 120_000);
});

describe("what one player keeps waiting is bounded", () => {
  it("keeps one upload waiting for its confirm (a new one replaces it), and one restore under way at a time", async () => {
    const user = await createUser(t);
    const data = await zipOf({ "storyverse-story.json": JSON.stringify(archive(1)) });
    const first = (await upload(user, data)).json().restore.id as string;
    const firstDir = (await findRestore(t.ctx.db, user.userId, first)).uploadDir;
    const second = (await upload(user, data)).json().restore.id as string;
    expect(await poll(user, first)).toMatchObject({ status: "failed", error: "Replaced by a newer upload." });
    await expect(stat(firstDir)).rejects.toThrow();
    expect((await call(user, "POST", `/api/stories/restore/${first}/confirm`)).statusCode).toBe(409);
    // While one restore of the player's is under way (held queued here), another waits for it.
    expect(await markQueued(t.ctx.db, user.userId, second, t.clock.now())).toBe(true);
    const third = (await upload(user, data)).json().restore.id as string;
    const refused = await call(user, "POST", `/api/stories/restore/${third}/confirm`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(
      "Another of your restores is still running. Confirm this one when it has finished.",
    );
    expect((await poll(user, third)).status).toBe("previewed");
    // Another player's restore is theirs alone: a 404 to this one.
    const other = await createUser(t);
    expect((await call(other, "GET", `/api/stories/restore/${third}`)).statusCode).toBe(404);
    expect((await call(other, "POST", `/api/stories/restore/${third}/confirm`)).statusCode).toBe(404);
  });
});

describe("a restore killed midway leaves nothing (T4-4)", () => {
  it("shows no story, and the sweep removes its files, its hidden story and its upload folder", async () => {
    const user = await createUser(t);
    const before = await counts();
    const pictures = [1, 2].map((n) => ({
      path: `media/images/000${n}.png`,
      kind: "image",
      created_at: at(n),
    }));
    const res = await upload(
      user,
      await zipOf({
        "storyverse-story.json": JSON.stringify(archive(800, pictures)),
        "media/images/0001.png": await samplePng(40, 30, "#113355"),
        "media/images/0002.png": await samplePng(40, 30, "#553311"),
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().restore.id as string;
    expect(await markQueued(t.ctx.db, user.userId, id, t.clock.now())).toBe(true);
    const row = await findRestore(t.ctx.db, user.userId, id);
    expect((await stat(row.uploadDir)).isDirectory()).toBe(true);

    // The process dies as its third transaction starts (the story's rows and the first 500 messages are in):
    // nothing after that point runs, as with kill -9. The try is left hanging, as a dead process leaves it.
    let transactions = 0;
    let died!: () => void;
    const dead = new Promise<void>((resolve) => {
      died = resolve;
    });
    const dying = new Proxy(t.ctx.db, {
      get(target, prop, receiver) {
        if (prop === "transaction") {
          return (...args: Parameters<typeof target.transaction>) => {
            transactions += 1;
            if (transactions === 3) {
              died();
              return new Promise(() => {});
            }
            return target.transaction(...args);
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    void runRestore({ ...t.ctx, db: dying } as AppContext, { restoreId: id });
    await dead;

    const left = await findRestore(t.ctx.db, user.userId, id);
    expect(left.status).toBe("running");
    expect(left.storyId).toBeTruthy();
    expect(left.storedKeys).toHaveLength(2);
    for (const key of left.storedKeys) expect(await t.storage.size(key)).toBeGreaterThan(0);
    const { rows } = await t.database.executeSql(
      "select count(*)::int as n from chat_messages where story_id = $1",
      [left.storyId],
    );
    expect(rows[0]).toEqual({ n: 500 });
    // Nothing of it is visible: not in the list, and its address is a 404.
    expect(await storyTitles(user)).toEqual([]);
    expect((await call(user, "GET", `/api/stories/${left.storyId}/messages`)).statusCode).toBe(404);
    expect((await call(user, "GET", "/api/gallery")).json().items).toEqual([]);

    // A sweep before the restore counts as stopped leaves it alone; one after removes everything it left.
    expect((await sweepRestores(t.ctx)).restores).toBe(0);
    t.clock.advance(4 * 60 * 60_000);
    // (The sweep also ends the other tests' restores left waiting or queued by hand: they are as old.)
    const swept = await sweepRestores(t.ctx);
    expect(swept.restores).toBeGreaterThanOrEqual(1);
    expect(await findRestore(t.ctx.db, user.userId, id)).toMatchObject({
      status: "failed",
      storyId: null,
      storedKeys: [],
      error: "The restore stopped before it finished: nothing of it was kept. Please try again.",
    });
    for (const key of left.storedKeys) await expect(t.storage.size(key)).rejects.toThrow();
    await expect(stat(row.uploadDir)).rejects.toThrow();
    expect(await counts()).toEqual(before);
    expect((await call(user, "GET", "/api/media/usage")).json()).toMatchObject({ usedBytes: 0 });
  }, 60_000);

  it("sweeps an upload folder that no restore names, and an upload never confirmed", async () => {
    const user = await createUser(t);
    const res = await upload(user, await zipOf({ "storyverse-story.json": JSON.stringify(archive(1)) }));
    const row = await findRestore(t.ctx.db, user.userId, res.json().restore.id);
    const { mkdir } = await import("node:fs/promises");
    const stray = `${uploadsDir(t.ctx)}/r-stray-${user.userId}`;
    await mkdir(stray, { recursive: true });
    t.clock.advance(2 * 60 * 60_000);
    // The stray folder was just made (its age is the file system's): it is swept once old enough.
    await sweepRestores(t.ctx, { orphanFolderMs: -1 });
    await expect(stat(stray)).rejects.toThrow();
    await expect(stat(row.uploadDir)).rejects.toThrow();
    expect(await findRestore(t.ctx.db, user.userId, row.id)).toMatchObject({ status: "failed" });
    expect((await readdir(uploadsDir(t.ctx))).includes(`r-stray-${user.userId}`)).toBe(false);
  });
});

describe("whole-tree backups (Backups lose branches)", () => {
  it("backs up every branch and checkpoint, says so, and restores them all on the branch the story showed", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const storyId = (await call(alice, "POST", "/api/stories", { title: "Forks", context: "" })).json().story
      .id as string;
    const turn = async (prompt: string, branch?: string) => {
      const url = `/api/stories/${storyId}/chat${branch ? `?branch=${branch}` : ""}`;
      const res = await call(alice, "POST", url, { prompt, chat_mode: "chat" });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().message_id as string;
    };
    const first = await turn("I open the door");
    const second = await turn("I take the left road");
    await turn("I reach the river");
    expect(
      (await call(alice, "PUT", `/api/stories/${storyId}/checkpoints/${first}`, { name: "At the door" }))
        .statusCode,
    ).toBe(200);
    const flight = await call(alice, "POST", `/api/stories/${storyId}/branches`, {
      from_message_id: second,
      name: "Flight",
    });
    expect(flight.statusCode, flight.body).toBe(201);
    const flightId = flight.json().branch.id as string;
    const onFlight = await turn("I run into the woods", flightId);
    const named = await call(
      alice,
      "PUT",
      `/api/stories/${storyId}/checkpoints/${onFlight}?branch=${flightId}`,
      { name: "Woods" },
    );
    expect(named.statusCode, named.body).toBe(200);
    const third = await call(alice, "POST", `/api/stories/${storyId}/branches?branch=${flightId}`, {
      from_message_id: onFlight,
      name: "Deeper",
    });
    expect(third.statusCode, third.body).toBe(201);
    // The story shows Flight again.
    expect(
      (await call(alice, "PUT", `/api/stories/${storyId}/branch`, { branch_id: flightId })).statusCode,
    ).toBe(200);

    const summary = await call(alice, "GET", `/api/stories/${storyId}/backup/summary`);
    expect(summary.json()).toEqual({ success: true, branches: 3, checkpoints: 2, media: 0 });
    const tree = async (user: TestUser, id: string) =>
      (await call(user, "GET", `/api/stories/${id}/branches`)).json().branches as {
        id: string;
        name: string;
        checkpoints: { name: string }[];
      }[];
    const messagesOf = async (user: TestUser, id: string, branch: string) =>
      (
        (await call(user, "GET", `/api/stories/${id}/messages?branch=${branch}`)).json().messages as {
          content: string;
        }[]
      ).map((m) => m.content);

    const backup = (await call(alice, "GET", `/api/stories/${storyId}/backup`)).rawPayload;
    const res = await upload(bob, backup);
    expect(res.json().restore.preview).toMatchObject({
      title: "Forks (restored)",
      branches: 3,
      checkpoints: 2,
      media: 0,
    });
    const done = await (async () => {
      const id = res.json().restore.id as string;
      expect((await call(bob, "POST", `/api/stories/restore/${id}/confirm`)).statusCode).toBe(202);
      return waitForEnd(bob, id);
    })();
    expect(done.status, done.error ?? "").toBe("completed");
    const copyId = done.story!.id;

    const original = await tree(alice, storyId);
    const copy = await tree(bob, copyId);
    expect(copy.map((b) => [b.name, b.checkpoints.map((c) => c.name)])).toEqual(
      original.map((b) => [b.name, b.checkpoints.map((c) => c.name)]),
    );
    expect(copy.map((b) => b.name)).toEqual(["Main", "Flight", "Deeper"]);
    for (const [i, branch] of original.entries()) {
      expect(await messagesOf(bob, copyId, copy[i]!.id)).toEqual(await messagesOf(alice, storyId, branch.id));
    }
    // The restored story opens on the branch the original showed, and is one card in the list.
    const listed = (await call(bob, "GET", "/api/stories")).json().stories as {
      title: string;
      branch: { name: string };
    }[];
    expect(listed.map((s) => [s.title, s.branch.name])).toEqual([["Forks (restored)", "Flight"]]);
  }, 120_000);
});
