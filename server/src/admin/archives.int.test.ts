// Archives of deleted accounts (decision 0157), on a real database (both engines): an administrator's deletion
// locks the account out at once, the worker makes the account's whole data export and keeps it for the
// operator, then deletes the account as its owner could; the operator lists and downloads it (audited), the
// sweep removes it once its days are up, and no one but an administrator even sees the calls. A deletion whose
// archive cannot be made leaves the account disabled, not deleted, with a failed row that can be retried.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ENABLE_WHILE_DELETING_MESSAGE } from "@storyverse/contract/admin";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { fillAccount } from "../../test/full-account";
import { readZip, type ZipEntry } from "../../test/zip";
import { changeAccount } from "../accounts/service";
import type { AppContext } from "../context";
import { BACKUP_JSON_NAME } from "../interop/backup-format";
import type { JobAttempt } from "../jobs/queue";
import { RATE_LIMIT_TABLE } from "../platform/rate-limit";
import {
  ARCHIVE_FAILED_MESSAGE,
  archiveAndDelete,
  deletedArchiveKey,
  sweepDeletedAccountArchives,
} from "./archives";

const DAY_MS = 24 * 60 * 60 * 1000;
type Method = "GET" | "POST" | "PUT" | "DELETE";

function caller(t: () => TestApp) {
  return (user: TestUser | undefined, method: Method, url: string, payload?: object) =>
    t().app.inject({ method, url, headers: user ? bearer(user.token) : {}, ...(payload ? { payload } : {}) });
}

type Archive = {
  id: string;
  status: string;
  error: string | null;
  email: string;
  username: string;
  user_id: string | null;
  deleted_by: string | null;
  reason: string | null;
  created_at: string;
  deleted_at: string | null;
  expires_at: string | null;
  filename: string | null;
  bytes: number | null;
};

/** The tables with a row naming the user anywhere (as text), the rate-limit counters aside (decision 0143). */
async function tablesNaming(t: TestApp, user: TestUser): Promise<string[]> {
  const tables = await t.ctx.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const naming: string[] = [];
  for (const { table_name: table } of tables.rows as { table_name: string }[]) {
    if (table === RATE_LIMIT_TABLE) continue;
    const result = await t.ctx.db.execute(
      sql`select count(*)::int as n from ${sql.identifier(table)} as t
          where t::text ilike ${`%${user.userId}%`} or t::text ilike ${`%${user.email}%`}
             or t::text ilike ${`%${user.username}%`}`,
    );
    if (((result.rows[0] as { n: number }).n ?? 0) > 0) naming.push(table);
  }
  return naming;
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const json = (entries: ZipEntry[], name: string) => {
  const entry = entries.find((e) => e.name === name);
  expect(entry, `${name} is in the archive`).toBeDefined();
  return JSON.parse(entry!.data.toString("utf8"));
};

describe("an administrator's deletion, with archives kept (the default, 30 days)", () => {
  let t: TestApp;
  let admin: TestUser;
  const call = caller(() => t);
  const audit = async () =>
    (await call(admin, "GET", "/api/admin/audit")).json().entries as {
      action: string;
      actor: string;
      target: string | null;
      target_id: string | null;
      details: Record<string, unknown>;
      reason: string | null;
    }[];

  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true });
    admin = await createUser(t);
    await changeAccount(t.ctx, admin.userId, { role: "admin" });
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  async function settled(id: string): Promise<Archive> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await call(admin, "GET", `/api/admin/archives/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      const archive = res.json().archive as Archive;
      if (archive.status === "kept" || archive.status === "failed") return archive;
      if (Date.now() > deadline) throw new Error("the deletion did not finish in time");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("locks the account out, keeps its whole export for the operator, deletes the rest; download audited; the sweep removes it", async () => {
    const player = await createUser(t);
    const filled = await fillAccount(t, player);
    const mediaDir = path.join(t.config.dataDir, "media", "u", player.userId);
    expect((await filesUnder(mediaDir)).length).toBeGreaterThan(0);

    const wrong = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Asked by mail",
      confirm_email: "someone-else@example.com",
    });
    expect(wrong.statusCode).toBe(400);
    expect((await call(player, "GET", "/api/profile")).statusCode).toBe(200);

    const res = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Asked by mail",
      confirm_email: player.email,
    });
    expect(res.statusCode, res.body).toBe(202);
    const ordered = res.json();
    expect(ordered).toMatchObject({
      deleting: true,
      kept_days: 30,
      archive: {
        email: player.email,
        username: player.username,
        user_id: player.userId,
        reason: "Asked by mail",
      },
    });
    expect(["queued", "building", "kept"]).toContain(ordered.archive.status);
    // Locked out at once: the session is refused before the worker has done anything.
    expect((await call(player, "GET", "/api/profile")).statusCode).toBe(401);

    const archive = await settled(ordered.archive.id);
    expect(archive).toMatchObject({
      status: "kept",
      error: null,
      email: player.email,
      username: player.username,
      user_id: null,
      deleted_by: admin.email,
      reason: "Asked by mail",
    });
    expect(Date.parse(archive.expires_at!) - Date.parse(archive.deleted_at!)).toBe(30 * DAY_MS);
    expect(archive.filename).toBe(`storyverse-${player.username}-${archive.created_at.slice(0, 10)}.zip`);

    // The account is gone as its owner's own deletion leaves it: only the operator's archive row names it,
    // its media folder is empty, its share link is dead and the ledger is kept anonymised.
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).statusCode).toBe(404);
    expect(await tablesNaming(t, player)).toEqual(["deleted_account_archives"]);
    expect(await filesUnder(mediaDir)).toEqual([]);
    expect((await t.app.inject({ method: "GET", url: `/api/shared/${filled.shareToken}` })).statusCode).toBe(
      404,
    );
    const kept = await t.ctx.db.execute(sql`select count(*)::int as n from closed_account_ledger`);
    expect(Number((kept.rows[0] as { n: number }).n)).toBeGreaterThan(0);
    expect(await t.storage.size(deletedArchiveKey(archive.id))).toBe(archive.bytes);

    // Listed for the operator, newest first.
    const list = (await call(admin, "GET", "/api/admin/archives")).json();
    expect(list.archives[0]).toMatchObject({ id: archive.id, email: player.email, bytes: archive.bytes });
    expect(list.next_cursor).toBeNull();

    // Downloaded through a signed link: the player's own archive, profile and each story's backup.
    const link = await call(admin, "POST", `/api/admin/archives/${archive.id}/download`);
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({ filename: archive.filename, bytes: archive.bytes });
    const file = await t.app.inject({ method: "GET", url: link.json().download_url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBe(archive.bytes);
    const entries = await readZip(file.rawPayload);
    expect(json(entries, "profile.json").profile).toMatchObject({
      email: player.email,
      username: player.username,
    });
    const stories = entries.filter((entry) => entry.name.startsWith("stories/"));
    expect(stories).toHaveLength(filled.storyIds.length);
    const titles = await Promise.all(
      stories.map(async (entry) => json(await readZip(entry.data), BACKUP_JSON_NAME).story.title as string),
    );
    expect(titles.sort()).toEqual([...filled.titles].sort());
    expect(entries.some((entry) => entry.name.startsWith("gallery/files/"))).toBe(true);

    // The audit log has the deletion (no longer naming the account) and the download.
    const entriesNow = await audit();
    expect(entriesNow[0]).toMatchObject({
      action: "download_archive",
      actor: admin.email,
      target: "a deleted account",
      details: { archive_id: archive.id, bytes: archive.bytes },
    });
    expect(entriesNow.find((entry) => entry.action === "delete_user")).toMatchObject({
      actor: admin.email,
      target: "a deleted account",
      target_id: null,
      details: { archive_id: archive.id, archive_kept_days: 30 },
      reason: "Asked by mail",
    });
    expect(JSON.stringify(entriesNow)).not.toContain(player.email);
    expect(JSON.stringify(entriesNow)).not.toContain(player.userId);

    // Once its days are up, the sweep removes the file and the row.
    expect(await sweepDeletedAccountArchives(t.ctx)).toBe(0);
    t.clock.advance(31 * DAY_MS);
    try {
      expect(await sweepDeletedAccountArchives(t.ctx)).toBeGreaterThanOrEqual(1);
    } finally {
      t.clock.advance(-31 * DAY_MS);
    }
    await expect(t.storage.size(deletedArchiveKey(archive.id))).rejects.toThrow();
    expect((await call(admin, "GET", `/api/admin/archives/${archive.id}`)).statusCode).toBe(404);
    expect(await tablesNaming(t, player)).toEqual([]);
  }, 240_000);

  it("removes an archive early when asked (audited)", async () => {
    const player = await createUser(t);
    const res = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Spam account",
      confirm_email: player.email,
    });
    expect(res.statusCode).toBe(202);
    const archive = await settled(res.json().archive.id);
    expect(archive.status).toBe("kept");
    const removed = await call(admin, "DELETE", `/api/admin/archives/${archive.id}`, {
      reason: "Not needed",
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await expect(t.storage.size(deletedArchiveKey(archive.id))).rejects.toThrow();
    expect((await call(admin, "GET", `/api/admin/archives/${archive.id}`)).statusCode).toBe(404);
    expect((await call(admin, "POST", `/api/admin/archives/${archive.id}/download`)).statusCode).toBe(404);
    expect((await audit())[0]).toMatchObject({
      action: "remove_archive",
      target: "a deleted account",
      details: { archive_id: archive.id },
      reason: "Not needed",
    });
  }, 120_000);

  it("answers 404 to a player and a visitor on every archive call, as a path that does not exist does", async () => {
    const player = await createUser(t);
    const victim = await createUser(t);
    const ordered = await call(admin, "DELETE", `/api/admin/users/${victim.userId}`, {
      reason: "x",
      confirm_email: victim.email,
    });
    const id = ordered.json().archive.id as string;
    await settled(id);
    const auditBefore = (await audit()).length;
    const calls: [Method, string, object | undefined][] = [
      ["GET", "/api/admin/archives", undefined],
      ["GET", "/api/admin/archives?cursor=nonsense", undefined],
      ["GET", `/api/admin/archives/${id}`, undefined],
      ["POST", `/api/admin/archives/${id}/download`, undefined],
      ["POST", `/api/admin/archives/${id}/retry`, undefined],
      ["DELETE", `/api/admin/archives/${id}`, {}],
    ];
    for (const [method, url, payload] of calls) {
      for (const who of [player, undefined]) {
        const res = await call(who, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({
          detail: `No API route ${method} ${url.split("?")[0]}`,
          code: "not_found",
        });
      }
    }
    expect((await audit()).length).toBe(auditBefore);
    expect((await call(admin, "GET", `/api/admin/archives/${id}`)).json().archive.status).toBe("kept");
  }, 120_000);
});

describe("a deletion whose archive cannot be made", () => {
  // No workers: this test runs the job itself, once with a store that refuses the archive.
  let t: TestApp;
  let admin: TestUser;
  const call = caller(() => t);
  const lastTry: JobAttempt = { jobId: "test", retryCount: 2, isLastAttempt: true };

  /** Runs the job's last try with a store that refuses the archive ("disk full"): the deletion fails. */
  const failArchive = async (archiveId: string) => {
    const refusing: AppContext["storage"] = Object.create(t.storage, {
      putStream: {
        value: async (_key: string, stream: NodeJS.ReadableStream) => {
          stream.resume();
          throw new Error("disk full");
        },
      },
    });
    await archiveAndDelete({ ...t.ctx, storage: refusing }, { archiveId }, lastTry);
  };

  beforeAll(async () => {
    t = await createTestApp({ tickingClock: true, workers: false });
    admin = await createUser(t);
    await changeAccount(t.ctx, admin.userId, { role: "admin" });
  }, 60_000);
  afterAll(async () => {
    await t?.cleanup();
  });

  it("leaves the account disabled and not deleted, says so, and a retry finishes the deletion", async () => {
    const player = await createUser(t);
    // A story (no media: this app has no workers to make them).
    const story = await call(player, "POST", "/api/stories", { title: "Kept for now", context: "x" });
    expect(story.statusCode).toBe(200);
    const before = await tablesNaming(t, player);
    expect(before).toEqual(expect.arrayContaining(["users", "stories"]));
    const ordered = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Asked by mail",
      confirm_email: player.email,
    });
    expect(ordered.statusCode).toBe(202);
    const id = ordered.json().archive.id as string;

    // The store refuses the archive on the last try.
    await failArchive(id);

    const failed = (await call(admin, "GET", `/api/admin/archives/${id}`)).json().archive;
    expect(failed).toMatchObject({ status: "failed", error: ARCHIVE_FAILED_MESSAGE, user_id: player.userId });
    // Not deleted: disabled, signed out, everything still there.
    const account = await call(admin, "GET", `/api/admin/users/${player.userId}`);
    expect(account.json()).toMatchObject({ disabled: true, sessions: 0 });
    expect((await call(player, "GET", "/api/profile")).statusCode).toBe(401);
    expect(await tablesNaming(t, player)).toEqual(
      expect.arrayContaining([...before, "deleted_account_archives", "admin_audit"]),
    );
    await expect(t.storage.size(deletedArchiveKey(id))).rejects.toThrow();
    expect((await call(admin, "POST", `/api/admin/archives/${id}/download`)).statusCode).toBe(409);

    // Retried: queued again (audited), then the job makes the archive and deletes the account.
    const retried = await call(admin, "POST", `/api/admin/archives/${id}/retry`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().archive.status).toBe("queued");
    expect((await call(admin, "POST", `/api/admin/archives/${id}/retry`)).statusCode).toBe(409);
    await archiveAndDelete(t.ctx, { archiveId: id }, lastTry);
    const kept = (await call(admin, "GET", `/api/admin/archives/${id}`)).json().archive;
    expect(kept).toMatchObject({ status: "kept", user_id: null, error: null });
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).statusCode).toBe(404);
    expect(await tablesNaming(t, player)).toEqual(["deleted_account_archives"]);
    const actions = (
      (await call(admin, "GET", "/api/admin/audit")).json().entries as { action: string }[]
    ).map((entry) => entry.action);
    expect(actions.slice(0, 2)).toEqual(["retry_deletion", "delete_user"]);
  }, 180_000);

  it("can be cancelled: the account stays, disabled", async () => {
    const player = await createUser(t);
    const ordered = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Mistake",
      confirm_email: player.email,
    });
    const id = ordered.json().archive.id as string;
    // Still waiting for the worker: neither removable nor retried.
    expect((await call(admin, "DELETE", `/api/admin/archives/${id}`, {})).statusCode).toBe(409);
    expect((await call(admin, "POST", `/api/admin/archives/${id}/retry`)).statusCode).toBe(409);
    await failArchive(id);
    const cancelled = await call(admin, "DELETE", `/api/admin/archives/${id}`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).json()).toMatchObject({
      disabled: true,
    });
    expect((await call(admin, "GET", "/api/admin/audit")).json().entries[0]).toMatchObject({
      action: "cancel_deletion",
      target: player.email,
    });
  }, 120_000);
  it("refuses to enable an account being deleted, and enabling it after a failed deletion cancels that deletion", async () => {
    const player = await createUser(t);
    const ordered = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Asked by mail",
      confirm_email: player.email,
    });
    const id = ordered.json().archive.id as string;
    // Waiting for the worker: enabling would let the player in until the job deletes them.
    const refused = await call(admin, "PUT", `/api/admin/users/${player.userId}`, { disabled: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(ENABLE_WHILE_DELETING_MESSAGE);
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).json()).toMatchObject({
      disabled: true,
    });
    expect((await call(admin, "GET", `/api/admin/archives/${id}`)).json().archive.status).toBe("queued");

    await failArchive(id);
    // Failed: enabling the account cancels the deletion (audited) and lets the player sign in again.
    const enabled = await call(admin, "PUT", `/api/admin/users/${player.userId}`, {
      disabled: false,
      reason: "Kept after all",
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ disabled: false });
    expect((await call(admin, "GET", `/api/admin/archives/${id}`)).statusCode).toBe(404);
    expect((await call(admin, "POST", `/api/admin/archives/${id}/retry`)).statusCode).toBe(404);
    const actions = (
      (await call(admin, "GET", "/api/admin/audit")).json().entries as { action: string; reason: string }[]
    ).slice(0, 2);
    expect(actions).toMatchObject([
      { action: "update_user", reason: "Kept after all" },
      { action: "cancel_deletion", reason: "Kept after all" },
    ]);
    const signIn = await t.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { email: player.email, password: player.password },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
  }, 120_000);
});
