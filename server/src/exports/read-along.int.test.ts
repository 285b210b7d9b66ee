// The read-along EPUB (issue #31 item 5): the narrator's words as EPUB 3 Media Overlays, downloaded or made by
// a job; refused clearly when narration is off or the input is bad; paid per 1,000 characters with a vendor's
// voice (in the job only) and given back when it fails. Books are checked with epubcheck when it is installed.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import {
  NARRATION_EPUB_ONLY_DETAIL,
  NARRATION_VALUE_DETAIL,
  READ_ALONG_USE_JOB_DETAIL,
} from "@storyverse/contract/exports";
import { SPEECH_OFF_DETAIL, speechCost } from "@storyverse/contract/voice";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { readZip } from "../../test/zip";
import { insertMessage } from "../conversation/repo";
import { findAccount, ledgerSum } from "../credits/repo";
import { charge } from "../credits/service";
import { creditTransactions, storyExports } from "../db/schema";
import { saveImage } from "../media/service";
import { probeDuration, runFfmpeg } from "../platform/ffmpeg";
import { READ_ALONG_REFUND_DESCRIPTION } from "./export-job";

// .ci/run installs Debian's epubcheck; without it the epubcheck runs are skipped (named in the report).
const epubcheckPath = spawnSync("sh", ["-c", "command -v epubcheck"], { encoding: "utf8" }).stdout.trim();
const hasEpubcheck = epubcheckPath !== "";

// The app of the describe block running now (each makes its own: offline voice, none, a vendor's).
let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "read-along-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

const balance = async (user: TestUser) =>
  (await call(user, "GET", "/api/credit-balance")).json().remaining as number;

const TALE = [
  'The gate creaks open. "Who goes there?" calls the guard. Nobody answers!',
  "Rain falls on the old road.\n\nFar below, the lanterns of the harbour go out one by one.",
];

/** A story of `count` exchanges written straight to the tables (the first with a scene picture, unless not). */
async function writtenStory(
  user: TestUser,
  title: string,
  count: number,
  narrator = (i: number) => TALE[i % 2]!,
  withPicture = true,
) {
  const storyId = (await call(user, "POST", "/api/stories", { title })).json().story.id as string;
  const [picture] = await t.providers.image.generate({ prompt: "gate", count: 1, references: [] });
  const item = await saveImage(
    t.ctx,
    t.ctx.db,
    {
      userId: user.userId,
      source: "story",
      storyId,
      storyTitle: title,
      messageId: null,
      description: "Gate",
    },
    picture!.data,
  );
  let at = Date.now() - 1_000_000;
  const stamp = () => {
    at += 1;
    return { createdAt: new Date(at), updatedAt: new Date(at) };
  };
  for (let i = 0; i < count; i += 1) {
    const base = { userId: user.userId, storyId, mode: (i === 0 ? "image" : "chat") as "image" | "chat" };
    await insertMessage(t.ctx.db, { ...base, role: "user", content: `I walk on (${i + 1})`, ...stamp() });
    await insertMessage(t.ctx.db, {
      ...base,
      role: "assistant",
      content: narrator(i),
      ...(i === 0 && withPicture ? { imageKey: item.storageKey, mediaStatus: "completed" as const } : {}),
      ...stamp(),
    });
  }
  return storyId;
}

/** The attributes of every element named `tag` (attribute values never contain quotes here). */
function elements(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${tag}\\b([^>]*)/?>`, "g"))].map((match) =>
    Object.fromEntries([...(match[1] ?? "").matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

const clock = (value: string) => {
  const [h, m, s] = value.split(":").map(Number);
  return h! * 3600 + m! * 60 + s!;
};

/** Runs epubcheck on the book; its whole report on failure. */
function epubcheck(file: string) {
  // Debian's epubcheck is the jar itself, run through binfmt_misc where the kernel has it; java runs it anywhere.
  const jar = realpathSync(epubcheckPath).endsWith(".jar");
  const [command, args] = jar
    ? ["java", ["-jar", realpathSync(epubcheckPath), file]]
    : [epubcheckPath, [file]];
  const run = spawnSync(command, args, { encoding: "utf8", timeout: 120_000 });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
}

/**
 * Checks a read-along book: every chapter with narration has a SMIL overlay in the manifest, each `text src`
 * points at a sentence span of its chapter, each clip lies inside its audio (as ffmpeg reads the file) after
 * the one before, and the package's metadata names each overlay's duration, their total and the active class.
 */
async function checkReadAlong(book: Buffer, name: string) {
  const entries = await readZip(book);
  const byName = new Map(entries.map((entry) => [entry.name, entry.data]));
  const text = (file: string) => byName.get(`OEBPS/${file}`)?.toString("utf8") ?? "";
  const opf = text("content.opf");
  const manifest = elements(opf, "item");
  const byId = new Map(manifest.map((item) => [item.id, item]));
  const narrated = manifest.filter((item) => item["media-overlay"]);
  expect(narrated.length).toBeGreaterThan(0);
  let total = 0;
  let sentences = 0;
  for (const chapter of narrated) {
    const overlay = byId.get(chapter["media-overlay"]!);
    expect(overlay?.["media-type"]).toBe("application/smil+xml");
    const smil = text(overlay!.href!);
    expect(smil).toContain('<smil xmlns="http://www.w3.org/ns/SMIL"');
    const xhtml = text(chapter.href!);
    const spans = [...xhtml.matchAll(/<span id="(s-\d+)">/g)].map((m) => m[1]);
    const pars = elements(smil, "text").map((el) => el.src!);
    // Every sentence span is read, in order, and every fragment exists in its chapter.
    expect(pars).toEqual(spans.map((id) => `${chapter.href}#${id}`));
    sentences += pars.length;
    const clips = elements(smil, "audio");
    const audioHref = clips[0]!.src!;
    expect(clips.every((clip) => clip.src === audioHref)).toBe(true);
    expect(manifest.find((item) => item.href === audioHref)?.["media-type"]).toBe("audio/mp4");
    const audio = byName.get(`OEBPS/${audioHref}`)!;
    const file = path.join(dir, `${name}-${chapter.id}.m4a`);
    await writeFile(file, audio);
    const log = await runFfmpeg(t.config.ffmpeg.path, ["-i", file], { allowFailure: true });
    expect(log).toMatch(/Stream #0:\d.*Audio: aac/);
    const length = await probeDuration(t.config.ffmpeg.path, file);
    let previousEnd = 0;
    for (const clip of clips) {
      const begin = clock(clip.clipBegin!);
      const end = clock(clip.clipEnd!);
      expect(begin).toBeGreaterThanOrEqual(previousEnd);
      expect(end).toBeGreaterThan(begin);
      expect(end).toBeLessThanOrEqual(length + 0.05);
      previousEnd = end;
    }
    const duration = new RegExp(
      `<meta property="media:duration" refines="#${overlay!.id}">([\\d:.]+)</meta>`,
    ).exec(opf)?.[1];
    expect(Math.abs(clock(duration!) - length)).toBeLessThan(0.1);
    total += clock(duration!);
  }
  const whole = /<meta property="media:duration">([\d:.]+)<\/meta>/.exec(opf)?.[1];
  expect(clock(whole!)).toBeCloseTo(total, 3);
  expect(opf).toContain('<meta property="media:active-class">-epub-media-overlay-active</meta>');
  expect(text("style.css")).toContain(".-epub-media-overlay-active {");
  return { opf, text, sentences };
}

/** Follows an export until it ends; its last state, with every progress figure seen on the way. */
async function follow(user: TestUser, storyId: string, exportId: string) {
  const deadline = Date.now() + 120_000;
  const seen: number[] = [];
  while (Date.now() < deadline) {
    const state = (await call(user, "GET", `/api/stories/${storyId}/exports/${exportId}`)).json().export;
    seen.push(state.progress);
    if (state.status === "completed" || state.status === "failed") return { ...state, seen };
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error("export did not finish");
}

const exportRows = (storyId: string) =>
  t.database.db.select().from(storyExports).where(eq(storyExports.storyId, storyId));

describe("the read-along EPUB (offline voice)", () => {
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("reads every sentence of the narrator aloud: an overlay per chapter, each span with its clip", async () => {
    const user = await createUser(t);
    // 12 exchanges: two chapters, each with its audio and overlay.
    const storyId = await writtenStory(user, "Read To Me", 12);
    const res = await call(user, "GET", `/api/stories/${storyId}/export?format=epub&narration=true`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers["content-type"]).toBe("application/epub+zip");
    const { opf, text, sentences } = await checkReadAlong(res.rawPayload, "direct");
    expect(elements(opf, "item").filter((item) => item["media-overlay"])).toHaveLength(2);
    // Three sentences in the first tale (the guard's line and its speech tag one of them, as live reading
    // marks it: decision 0133), two in the second; six of each.
    expect(sentences).toBe(30);
    const chapter = text("chapter-001.xhtml");
    expect(chapter).toContain(
      '<span id="s-2">&quot;Who goes there?&quot; calls the guard.</span> <span id="s-3">Nobody answers!</span>',
    );
    // The paragraphs stay paragraphs; the player's lines are shown, not read.
    expect(chapter).toContain('<p><span id="s-4">Rain falls on the old road.</span></p>');
    expect(chapter).toContain("I walk on (1)");
    expect(chapter).not.toMatch(/<span id="s-\d+">I walk on/);

    const plain = await call(user, "GET", `/api/stories/${storyId}/export?format=epub`);
    const plainOpf = (await readZip(plain.rawPayload)).find((e) => e.name === "OEBPS/content.opf");
    expect(plainOpf?.data.toString()).not.toContain("media-overlay");
  }, 180_000);

  // Skipped without epubcheck (the report names this test); .ci/run installs it.
  it.skipIf(!hasEpubcheck)(
    "passes epubcheck, read along and plain",
    async () => {
      const user = await createUser(t);
      const storyId = await writtenStory(user, "Checked Book", 3);
      for (const query of ["format=epub&narration=true", "format=epub"]) {
        const res = await call(user, "GET", `/api/stories/${storyId}/export?${query}`);
        expect(res.statusCode).toBe(200);
        const file = path.join(dir, `checked-${query.length}.epub`);
        await writeFile(file, res.rawPayload);
        epubcheck(file);
      }
    },
    240_000,
  );

  it("makes a read-along book in an export job, free with the offline voice, its progress moving as it speaks", async () => {
    const user = await createUser(t);
    // No scene picture, fifteen exchanges to speak (two chapters): once the first chapter is spoken the
    // progress is past half, which reading the cover alone could never make it.
    const storyId = await writtenStory(user, "By The Job", 15, undefined, false);
    const start = await balance(user);
    const started = await call(user, "POST", `/api/stories/${storyId}/exports`, {
      format: "epub",
      narration: true,
    });
    expect(started.statusCode, started.body).toBe(202);
    const state = await follow(user, storyId, started.json().export.id);
    expect(state.status).toBe("completed");
    const file = await call(user, "GET", `/api/stories/${storyId}/exports/${state.id}/file`);
    const { sentences } = await checkReadAlong(file.rawPayload, "job");
    expect(sentences).toBe(8 * 3 + 7 * 2);
    expect(state.seen).toEqual([...state.seen].sort((a: number, b: number) => a - b));
    expect(state.seen.some((progress: number) => progress >= 50 && progress < 100)).toBe(true);
    expect(await balance(user)).toBe(start);
  }, 180_000);

  it("refuses bad narration input with a clear 400, and makes nothing", async () => {
    const user = await createUser(t);
    const storyId = await writtenStory(user, "Bad Input", 1);
    const direct = async (query: string) => {
      const res = await call(user, "GET", `/api/stories/${storyId}/export?${query}`);
      expect(res.statusCode).toBe(400);
      return res.json().detail as string;
    };
    expect(await direct("format=epub&narration=maybe")).toBe(NARRATION_VALUE_DETAIL);
    expect(await direct("format=pdf&narration=true")).toBe(NARRATION_EPUB_ONLY_DETAIL);
    expect(await direct("format=md&narration=1")).toBe(NARRATION_EPUB_ONLY_DETAIL);
    expect(await exportRows(storyId)).toHaveLength(0);
    // narration=false is the plain book (made by an export job, as every download is).
    expect(
      (await call(user, "GET", `/api/stories/${storyId}/export?format=md&narration=false`)).statusCode,
    ).toBe(200);
    const made = await exportRows(storyId);
    expect(made.map((row) => [row.format, row.narration])).toEqual([["md", false]]);

    const job = async (body: object) => {
      const res = await call(user, "POST", `/api/stories/${storyId}/exports`, body);
      expect(res.statusCode).toBe(400);
      return res.json().detail as string;
    };
    expect(await job({ format: "pdf", narration: true })).toBe(NARRATION_EPUB_ONLY_DETAIL);
    expect(await job({ format: "epub", narration: "yes" })).toContain(NARRATION_VALUE_DETAIL);
    expect(await exportRows(storyId)).toHaveLength(made.length);
  });
});

describe("the read-along EPUB with narration off (TTS_PROVIDER=none)", () => {
  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true, env: { TTS_PROVIDER: "none" } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("answers 503 saying narration is off, downloaded or by a job, and queues nothing", async () => {
    const user = await createUser(t);
    const storyId = await writtenStory(user, "Silent", 1);
    const direct = await call(user, "GET", `/api/stories/${storyId}/export?format=epub&narration=true`);
    expect(direct.statusCode).toBe(503);
    expect(direct.json().detail).toBe(SPEECH_OFF_DETAIL);
    const job = await call(user, "POST", `/api/stories/${storyId}/exports`, {
      format: "epub",
      narration: true,
    });
    expect(job.statusCode).toBe(503);
    expect(job.json().detail).toBe(SPEECH_OFF_DETAIL);
    expect(await exportRows(storyId)).toHaveLength(0);
    // The plain book is still there.
    expect((await call(user, "GET", `/api/stories/${storyId}/export?format=epub`)).statusCode).toBe(200);
  });
});

describe("the read-along EPUB with a vendor's voice (OpenAI speech format)", () => {
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

  // Narration only (no quotes): the characters paid for are the words as written.
  const WORDS = "The tide turns at midnight. The boats come home. ".repeat(15).trim();

  it("is made only by a job, which charges per 1,000 characters and gives it back when the vendor fails", async () => {
    const user = await createUser(t);
    const storyId = await writtenStory(user, "Paid Voice", 2, () => WORDS);
    const direct = await call(user, "GET", `/api/stories/${storyId}/export?format=epub&narration=true`);
    expect(direct.statusCode).toBe(400);
    expect(direct.json().detail).toBe(READ_ALONG_USE_JOB_DETAIL);

    const price = speechCost(CREDIT_COSTS.speech, 2 * WORDS.length);
    expect(price).toBeGreaterThan(0);
    const start = await balance(user);
    const made = await call(user, "POST", `/api/stories/${storyId}/exports`, {
      format: "epub",
      narration: true,
    });
    expect(made.statusCode, made.body).toBe(202);
    const state = await follow(user, storyId, made.json().export.id);
    expect(state.status).toBe("completed");
    expect(fake.requests.some((request) => request.path === "/v1/audio/speech")).toBe(true);
    expect(await balance(user)).toBe(start - price);
    const file = await call(user, "GET", `/api/stories/${storyId}/exports/${state.id}/file`);
    await checkReadAlong(file.rawPayload, "vendor");

    // Asked for again with nothing changed: the book made already, narrated and charged once.
    const speechCalls = fake.requests.filter((request) => request.path === "/v1/audio/speech").length;
    const same = await call(user, "POST", `/api/stories/${storyId}/exports`, {
      format: "epub",
      narration: true,
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ reused: true, export: { id: state.id, status: "completed" } });
    expect(await balance(user)).toBe(start - price);
    expect(fake.requests.filter((request) => request.path === "/v1/audio/speech")).toHaveLength(speechCalls);

    // A new title is a new book (the same words to narrate, so the same price).
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/api/stories/${storyId}`,
      headers: bearer(user.token),
      payload: { title: "Paid Voice, Again" },
    });
    expect(renamed.statusCode).toBe(200);
    fake.failNext({ status: 400, message: "Invalid voice." }, "/audio/speech");
    const again = await call(user, "POST", `/api/stories/${storyId}/exports`, {
      format: "epub",
      narration: true,
    });
    expect(again.statusCode).toBe(202);
    const failed = await follow(user, storyId, again.json().export.id);
    expect(failed.status).toBe("failed");
    expect(await balance(user)).toBe(start - price);
    // The failed book was charged and given back: one charge, one refund of the same amount.
    const rows = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.userId));
    const narration = rows.filter((row) => row.description.startsWith("Read-along book narration"));
    const refunds = rows.filter((row) => row.description === READ_ALONG_REFUND_DESCRIPTION);
    expect(narration).toHaveLength(2);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amountTenths).toBe(price * 10);
    const account = await findAccount(t.database.db, user.userId);
    expect(await ledgerSum(t.database.db, user.userId)).toBe(account!.balanceTenths);
  }, 180_000);

  it("refuses a read-along book the balance cannot pay for with a 402, queueing nothing", async () => {
    const user = await createUser(t);
    const storyId = await writtenStory(user, "Broke", 1, () => WORDS);
    await charge(t.database.db, user.userId, "video", 4, new Date(), "Spent elsewhere");
    await charge(t.database.db, user.userId, "chat", 5, new Date(), "Spent elsewhere");
    const left = await balance(user);
    if (left > 0)
      await charge(t.database.db, user.userId, "speech", left / CREDIT_COSTS.speech, new Date(), "Spent");
    expect(await balance(user)).toBe(0);
    const res = await call(user, "POST", `/api/stories/${storyId}/exports`, {
      format: "epub",
      narration: true,
    });
    expect(res.statusCode).toBe(402);
    expect(await exportRows(storyId)).toHaveLength(0);
    // The plain book needs no credits.
    const plain = await call(user, "POST", `/api/stories/${storyId}/exports`, { format: "epub" });
    expect(plain.statusCode).toBe(202);
  }, 60_000);
});
