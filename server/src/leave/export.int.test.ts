// Leave with your data, the archive (decision 0143): a player's one download holds every story's backup (the
// same file as the story backup), the gallery's files, the Studio, the credit history and the profile; it is
// made by a job reading the library a page at a time; and no one else can follow or download it.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { fillAccount } from "../../test/full-account";
import { restoreBackup } from "../../test/restore-backup";
import { readZip, type ZipEntry } from "../../test/zip";
import { creditTransactions, mediaBoardItems, mediaBoards, mediaItems } from "../db/schema";
import { BACKUP_FORMAT, BACKUP_JSON_NAME } from "../interop/backup-format";
import {
  ACCOUNT_EXPORT_EXPIRED_MESSAGE,
  ACCOUNT_EXPORT_PAGE,
  accountExportJob,
  makeAccountExport,
  startAccountExport,
  sweepAccountArchives,
} from "./export";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type ExportBody = {
  id: string;
  status: string;
  progress: number;
  step: string | null;
  download_url: string | null;
  filename: string | null;
  bytes: number | null;
};

const call = (user: TestUser, method: "GET" | "POST", url: string) =>
  t.app.inject({ method, url, headers: bearer(user.token) });

async function finishedExport(user: TestUser): Promise<ExportBody> {
  const started = await call(user, "POST", "/api/account/export");
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().export.id as string;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await call(user, "GET", `/api/account/export/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json().export as ExportBody;
    if (body.status === "completed" || body.status === "failed") return body;
    if (Date.now() > deadline) throw new Error("the archive was not made in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function download(url: string): Promise<{ raw: Buffer; entries: ZipEntry[] }> {
  const res = await t.app.inject({ method: "GET", url });
  expect(res.statusCode).toBe(200);
  return { raw: res.rawPayload, entries: await readZip(res.rawPayload) };
}

const json = (entries: ZipEntry[], name: string) => {
  const entry = entries.find((e) => e.name === name);
  expect(entry, `${name} is in the archive`).toBeDefined();
  return JSON.parse(entry!.data.toString("utf8"));
};

describe("the account archive", () => {
  it("holds every story's backup, the gallery's files, the Studio, the ledger and the profile", async () => {
    const user = await createUser(t);
    const filled = await fillAccount(t, user);
    // The Studio's picture is a favourite, on a board.
    const [studioItem] = await t.ctx.db
      .update(mediaItems)
      .set({ favourite: true })
      .where(and(eq(mediaItems.userId, user.userId), eq(mediaItems.source, "studio")))
      .returning({ id: mediaItems.id });
    const [board] = await t.ctx.db
      .insert(mediaBoards)
      .values({ userId: user.userId, name: "Lighthouses", createdAt: new Date() })
      .returning();
    await t.ctx.db
      .insert(mediaBoardItems)
      .values({ boardId: board!.id, mediaId: studioItem!.id, userId: user.userId, addedAt: new Date() });
    const made = await finishedExport(user);
    expect(made.status).toBe("completed");
    expect(made.progress).toBe(100);
    expect(made.filename).toBe(`storyverse-${user.username}-${new Date().toISOString().slice(0, 10)}.zip`);
    const { raw, entries } = await download(made.download_url!);
    expect(made.bytes).toBe(raw.length);
    const names = entries.map((entry) => entry.name);

    const profile = json(entries, "profile.json");
    expect(profile.profile).toMatchObject({ username: user.username, email: user.email });
    expect(typeof profile.credits.balance).toBe("number");
    // The personas (decision 0152), one list.
    expect(json(entries, "personas.json").personas).toEqual([
      expect.objectContaining({
        name: filled.personaName,
        description: "A caravan guide who reads the stars.",
        is_default: true,
      }),
    ]);

    // Each story is its whole backup, the same as GET /api/stories/{id}/backup gives.
    const storyFiles = names.filter((name) => name.startsWith("stories/"));
    expect(storyFiles).toHaveLength(2);
    for (const [i, storyId] of filled.storyIds.entries()) {
      const inner = await readZip(entries.find((entry) => entry.name === storyFiles[i])!.data);
      const archived = json(inner, BACKUP_JSON_NAME);
      expect(archived.format).toBe(BACKUP_FORMAT);
      expect(archived.story.title).toBe(filled.titles[i]);
      const direct = await call(user, "GET", `/api/stories/${storyId}/backup`);
      const directJson = json(await readZip(direct.rawPayload), BACKUP_JSON_NAME);
      const words = (story: { messages: { role: string; content: string }[] }) =>
        story.messages.map((message) => `${message.role}: ${message.content}`);
      expect(words(archived)).toEqual(words(directJson));
      expect(archived.messages.length).toBeGreaterThanOrEqual(2);
      // The picture turn's file travels inside the story's backup.
      if (i === 0) expect(inner.some((entry) => entry.name.startsWith("media/images/"))).toBe(true);
    }
    // And it restores: the first story, taken from the archive, comes back whole in another account.
    const elsewhere = await createUser(t);
    const restored = await restoreBackup(
      t,
      elsewhere,
      entries.find((entry) => entry.name === storyFiles[0])!.data,
    );
    expect(restored.story.title).toBe(`${filled.titles[0]} (restored)`);
    const page = (await call(elsewhere, "GET", `/api/stories/${restored.story.id}/messages`)).json();
    expect(JSON.stringify(page)).toContain("I greet the caravan master");

    // The gallery: the story's picture and the Studio's, each file and what it is.
    const gallery = json(entries, "gallery/gallery.json") as {
      id: string;
      path: string;
      source: string;
      favourite: boolean;
      boards: string[];
    }[];
    expect(gallery.find((item) => item.id === studioItem!.id)).toMatchObject({
      favourite: true,
      boards: ["Lighthouses"],
    });
    expect(gallery.find((item) => item.source === "story")).toMatchObject({ favourite: false, boards: [] });
    const galleryRows = await t.ctx.db.select().from(mediaItems).where(eq(mediaItems.userId, user.userId));
    expect(gallery.map((item) => item.source).sort()).toEqual(["story", "studio"]);
    expect(gallery.map((item) => item.id).sort()).toEqual(galleryRows.map((row) => row.id).sort());
    for (const item of gallery) {
      const file = entries.find((entry) => entry.name === item.path);
      expect(file?.data.subarray(1, 4).toString("ascii")).toBe("PNG");
    }

    const studio = json(entries, "studio/studio.json") as {
      role: string;
      content: string;
      gallery_items: string[];
    }[];
    expect(studio.find((message) => message.role === "user")?.content).toBe(filled.studioPrompt);
    const batch = studio.find((message) => message.gallery_items.length > 0);
    expect(gallery.map((item) => item.id)).toContain(batch?.gallery_items[0]);

    const history = json(entries, "credits/history.json") as { kind: string; credits: number }[];
    const ledger = await t.ctx.db.select().from(creditTransactions);
    const own = ledger.filter((row) => row.userId === user.userId);
    expect(history).toHaveLength(own.length);
    expect(history.map((entry) => entry.kind)).toContain("signup_bonus");
    expect(history.some((entry) => entry.credits < 0)).toBe(true);

    const manifest = json(entries, "archive.json");
    expect(manifest).toMatchObject({ gallery_items: 2, ledger_entries: own.length, files_left_out: [] });
  }, 180_000);

  it("is answered again while it is being made, and no one else can follow it", async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    // Queued and never picked up (its job is not sent), so it is still being made when asked for again.
    const queued = await startAccountExport(
      { ...t.ctx, jobs: { ...t.ctx.jobs, send: async () => "" } },
      owner.userId,
    );
    const again = await call(owner, "POST", "/api/account/export");
    expect(again.statusCode).toBe(200);
    expect(again.json().export).toMatchObject({ id: queued.export.id, status: "queued", download_url: null });
    const id = queued.export.id;
    expect((await call(stranger, "GET", `/api/account/export/${id}`)).statusCode).toBe(404);
    expect((await call(stranger, "GET", `/api/account/export/${randomUUID()}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `/api/account/export/${id}` })).statusCode).toBe(401);
    const made = await finishedExport(stranger);
    expect(made.status).toBe("completed");
    expect((await call(owner, "GET", `/api/account/export/${made.id}`)).statusCode).toBe(404);
  }, 120_000);
});

type QueryResult = { rows?: unknown[] };
type Client = { query: (...args: unknown[]) => Promise<QueryResult> };

describe("the account archive's reads", () => {
  it("read the library a page at a time: no statement returns more than a page of any list", async () => {
    const user = await createUser(t);
    const items = ACCOUNT_EXPORT_PAGE + 50;
    const png = await samplePng(8, 8, "#3366aa");
    const start = Date.now() - 60_000;
    for (let i = 0; i < items; i += 1) {
      const id = randomUUID();
      const key = `u/${user.userId}/${id}.png`;
      await t.storage.put(key, png, "image/png");
      await t.ctx.db.insert(mediaItems).values({
        id,
        userId: user.userId,
        kind: "image",
        storageKey: key,
        mimeType: "image/png",
        bytes: png.length,
        source: "studio",
        createdAt: new Date(start + i),
      });
    }
    await t.ctx.db.insert(creditTransactions).values(
      Array.from({ length: items }, (_, i) => ({
        userId: user.userId,
        transactionType: "grant",
        amountTenths: 10,
        balanceAfterTenths: 160 + i * 10,
        description: `grant ${i}`,
        createdAt: new Date(start + i),
      })),
    );

    const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
    const original = client.query;
    const largest = new Map<string, number>();
    const statements = new Map<string, number>();
    client.query = async (...args: unknown[]) => {
      const result = await original.apply(client, args);
      const first = args[0];
      const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
      const table =
        /^\s*select[\s\S]*? from "(media_items|credit_transactions|stories|studio_messages)"/i.exec(
          text,
        )?.[1];
      if (table) {
        largest.set(table, Math.max(largest.get(table) ?? 0, result.rows?.length ?? 0));
        statements.set(table, (statements.get(table) ?? 0) + 1);
      }
      return result;
    };
    let exportId: string;
    try {
      // The job is run here, in this test's process and on this handle, so its statements are seen.
      const started = await startAccountExport(
        { ...t.ctx, jobs: { ...t.ctx.jobs, send: async () => "" } },
        user.userId,
      );
      exportId = started.export.id;
      await makeAccountExport(
        t.ctx,
        { exportId },
        { jobId: accountExportJob.name, retryCount: 0, isLastAttempt: true },
      );
    } finally {
      client.query = original;
    }
    expect(largest.get("media_items")).toBeLessThanOrEqual(ACCOUNT_EXPORT_PAGE);
    expect(largest.get("credit_transactions")).toBeLessThanOrEqual(ACCOUNT_EXPORT_PAGE);
    // Two pages of files and two of gallery.json; two pages of the ledger.
    expect(statements.get("media_items")).toBeGreaterThanOrEqual(4);
    expect(statements.get("credit_transactions")).toBeGreaterThanOrEqual(2);

    const made = (await call(user, "GET", `/api/account/export/${exportId}`)).json().export as ExportBody;
    expect(made.status).toBe("completed");
    const { entries } = await download(made.download_url!);
    expect(entries.filter((entry) => entry.name.startsWith("gallery/files/"))).toHaveLength(items);
    expect(json(entries, "gallery/gallery.json")).toHaveLength(items);
    expect(json(entries, "credits/history.json")).toHaveLength(items + 1);
  }, 180_000);
});

describe("an archive's file", () => {
  it("is removed by the sweep once its 7 days are up, and the archive then says so", async () => {
    const user = await createUser(t);
    const made = await finishedExport(user);
    const key = `account-exports/${made.id}.zip`;
    expect(await t.storage.size(key)).toBe(made.bytes);
    expect(await sweepAccountArchives(t.ctx)).toBe(0);
    const eightDays = 8 * 24 * 60 * 60 * 1000;
    t.clock.advance(eightDays);
    try {
      expect(await sweepAccountArchives(t.ctx)).toBeGreaterThanOrEqual(1);
      await expect(t.storage.size(key)).rejects.toThrow();
      const after = (await call(user, "GET", `/api/account/export/${made.id}`)).json().export;
      expect(after).toMatchObject({
        status: "failed",
        error: ACCOUNT_EXPORT_EXPIRED_MESSAGE,
        download_url: null,
      });
    } finally {
      t.clock.advance(-eightDays);
    }
  }, 120_000);
});
