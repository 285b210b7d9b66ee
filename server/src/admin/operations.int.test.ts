// The rest of the admin console on a real database (both engines, decision 0150): usage grouped from the
// ledger as JSON and CSV, Health (vendor calls, the queue, a failed job queued again, storage, event streams),
// Moderation (share links found and taken down, the link dead at once, the owner shown why), a forced password
// reset and a deletion from the console. Every call answers 404 to anyone but an administrator and every
// action is in the audit log.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { linkFrom } from "../../test/smtp-sink";
import { type EventStream, openEventStream } from "../../test/sse";
import { changeAccount } from "../accounts/service";
import { insertTransaction } from "../credits/repo";
import type { JobSpec } from "../jobs/queue";

let t: TestApp;
let base: string;
let admin: TestUser;
const streams: EventStream[] = [];

beforeAll(async () => {
  // An install that keeps no archive of a deleted account: the console's deletion is done before its answer (the
  // kept archive, DELETED_ACCOUNT_ARCHIVE_DAYS' default, is admin/archives.int.test.ts's, decision 0157).
  t = await createTestApp({ tickingClock: true, env: { DELETED_ACCOUNT_ARCHIVE_DAYS: "0" } });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  admin = await createUser(t);
  await changeAccount(t.ctx, admin.userId, { role: "admin" });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.cleanup();
});

type Method = "GET" | "POST" | "DELETE";
const call = (user: TestUser | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user ? bearer(user.token) : {}, ...(payload ? { payload } : {}) });

const auditEntries = async () =>
  (await call(admin, "GET", "/api/admin/audit")).json().entries as {
    action: string;
    actor: string;
    target: string | null;
    target_id: string | null;
    details: Record<string, unknown>;
    reason: string | null;
  }[];

describe("every new /api/admin/* call", () => {
  it("answers 404 to a player and a visitor, as a path that does not exist does, and changes nothing", async () => {
    const player = await createUser(t);
    const victim = await createUser(t);
    const calls: [Method, string, object | undefined][] = [
      ["GET", "/api/admin/usage", undefined],
      ["GET", "/api/admin/usage?format=csv&group_by=user", undefined],
      ["GET", "/api/admin/usage?from=nonsense", undefined],
      ["GET", "/api/admin/health", undefined],
      ["POST", `/api/admin/jobs/anything/${randomUUID()}/retry`, undefined],
      ["GET", "/api/admin/shares", undefined],
      ["DELETE", "/api/admin/shares/AAAAAAAAAAAAAAAAAAAAAA", { reason: "spam" }],
      ["POST", "/api/admin/shares/AAAAAAAAAAAAAAAAAAAAAA/lift", {}],
      ["GET", "/api/admin/shares?status=taken_down", undefined],
      ["POST", `/api/admin/users/${victim.userId}/password-reset`, {}],
      ["DELETE", `/api/admin/users/${victim.userId}`, { reason: "x", confirm_email: victim.email }],
    ];
    const auditBefore = (await auditEntries()).length;
    for (const [method, url, payload] of calls) {
      for (const caller of [player, undefined]) {
        const res = await call(caller, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({
          detail: `No API route ${method} ${url.split("?")[0]}`,
          code: "not_found",
        });
      }
    }
    // The victim still signs in with their session and password; the audit log has nothing new.
    expect((await call(victim, "GET", "/api/profile")).statusCode).toBe(200);
    expect((await auditEntries()).length).toBe(auditBefore);
  });
});

describe("usage", () => {
  // Ledger rows on days of their own (January 2026), so the figures below are exactly these rows.
  const day = (date: string, hour = 12) => new Date(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
  let spender: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    spender = await createUser(t);
    other = await createUser(t);
    const row = (
      user: TestUser,
      transactionType: string,
      amountTenths: number,
      createdAt: Date,
      extra: { quantity?: number; reference?: string } = {},
    ) =>
      insertTransaction(t.ctx.db, {
        userId: user.userId,
        transactionType,
        amountTenths,
        balanceAfterTenths: 0,
        createdAt,
        ...extra,
      });
    const batch = randomUUID();
    await row(spender, "usage_chat", -5, day("2026-01-10", 1));
    await row(spender, "usage_image", -15, day("2026-01-10", 2));
    await row(spender, "usage_studio_image", -60, day("2026-01-10", 3), {
      quantity: 4,
      reference: `charge:${batch}`,
    });
    await row(spender, "usage_video", -30, day("2026-01-10", 4));
    await row(spender, "usage_speech", -5, day("2026-01-10", 5));
    await row(spender, "usage_film", 0, day("2026-01-10", 6));
    // One picture of the batch was not delivered: refunded the next day, under pictures.
    await row(spender, "refund", 15, day("2026-01-11", 23), { reference: `refund:${batch}` });
    await row(other, "usage_advisor", -5, day("2026-01-12", 0));
    // Money in, not spending: never counted.
    await row(other, "purchase", 2750, day("2026-01-12", 1));
    await row(other, "admin_grant", 100, day("2026-01-12", 2));
    // Outside the range.
    await row(other, "usage_chat", -5, day("2026-01-13", 0));
    await row(other, "usage_chat", -5, day("2026-01-09", 23));
  });

  const range = "from=2026-01-10&to=2026-01-12";

  it("sums credits net of refunds per day and kind, matching the ledger, with every day of the range", async () => {
    const res = await call(admin, "GET", `/api/admin/usage?${range}&group_by=day`);
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ from: "2026-01-10", to: "2026-01-12", group_by: "day", user_id: null });
    expect(report.rows).toEqual([
      {
        key: "2026-01-10",
        label: "2026-01-10",
        credits: 11.5,
        uses: 9,
        by_kind: { text: 0.5, pictures: 7.5, clips: 3, speech: 0.5, films: 0, other: 0 },
      },
      {
        key: "2026-01-11",
        label: "2026-01-11",
        credits: -1.5,
        uses: 0,
        by_kind: { text: 0, pictures: -1.5, clips: 0, speech: 0, films: 0, other: 0 },
      },
      {
        key: "2026-01-12",
        label: "2026-01-12",
        credits: 0.5,
        uses: 1,
        by_kind: { text: 0.5, pictures: 0, clips: 0, speech: 0, films: 0, other: 0 },
      },
    ]);
    // The same total the ledger gives, read straight from it.
    const ledger = await t.ctx.db.execute<{ spent: number }>(
      sql`select coalesce(sum(-amount_tenths), 0)::int as spent
        from credit_transactions
        where created_at >= '2026-01-10T00:00:00Z' and created_at < '2026-01-13T00:00:00Z'
          and (transaction_type like 'usage\\_%' or transaction_type = 'refund')`,
    );
    expect(report.total_credits).toBe(Number(ledger.rows[0]!.spent) / 10);
    expect(report.total_credits).toBe(10.5);
    expect(report.total_uses).toBe(10);
  });

  it("groups by kind and by account (most spent first), and for one account", async () => {
    const kinds = (await call(admin, "GET", `/api/admin/usage?${range}&group_by=kind`)).json();
    expect(kinds.rows.map((row: { key: string; credits: number }) => [row.key, row.credits])).toEqual([
      ["text", 1],
      ["pictures", 6],
      ["clips", 3],
      ["speech", 0.5],
      ["films", 0],
      ["other", 0],
    ]);
    const users = (await call(admin, "GET", `/api/admin/usage?${range}&group_by=user`)).json();
    expect(users.rows.map((row: { key: string; label: string; credits: number }) => row)).toMatchObject([
      { key: spender.userId, label: spender.email, credits: 10 },
      { key: other.userId, label: other.email, credits: 0.5 },
    ]);
    const one = (
      await call(admin, "GET", `/api/admin/usage?${range}&group_by=day&user_id=${other.userId}`)
    ).json();
    expect(one.user_id).toBe(other.userId);
    expect(one.rows.map((row: { credits: number }) => row.credits)).toEqual([0, 0, 0.5]);
  });

  it("keeps a deleted account's spending in the install's totals, not in the list by account", async () => {
    const leaver = await createUser(t);
    const batch = randomUUID();
    const spend = (transactionType: string, amountTenths: number, createdAt: Date, reference?: string) =>
      insertTransaction(t.ctx.db, {
        userId: leaver.userId,
        transactionType,
        amountTenths,
        balanceAfterTenths: 0,
        createdAt,
        ...(reference ? { reference } : {}),
      });
    // February, a month no other test writes to: a picture batch, one picture refunded, and a chat turn.
    await spend("usage_studio_image", -30, day("2026-02-03", 10), `charge:${batch}`);
    await spend("refund", 15, day("2026-02-03", 11), `refund:${batch}`);
    await spend("usage_chat", -5, day("2026-02-04", 9));
    const february = "from=2026-02-03&to=2026-02-04";
    const before = (await call(admin, "GET", `/api/admin/usage?${february}&group_by=day`)).json();

    const deleted = await call(admin, "DELETE", `/api/admin/users/${leaver.userId}`, {
      reason: "Asked to leave",
      confirm_email: leaver.email,
    });
    expect(deleted.statusCode).toBe(200);
    const after = (await call(admin, "GET", `/api/admin/usage?${february}&group_by=day`)).json();
    expect(after.rows).toEqual(before.rows);
    expect(after.rows.map((row: { key: string; credits: number }) => [row.key, row.credits])).toEqual([
      ["2026-02-03", 1.5],
      ["2026-02-04", 0.5],
    ]);
    expect(after.total_credits).toBe(2);
    const kinds = (await call(admin, "GET", `/api/admin/usage?${february}&group_by=kind`)).json();
    expect(kinds.rows.find((row: { key: string }) => row.key === "pictures")).toMatchObject({ credits: 1.5 });
    const byAccount = (await call(admin, "GET", `/api/admin/usage?${february}&group_by=user`)).json();
    expect(byAccount.rows).toEqual([]);
  });

  it("counts a real turn's charge today under text", async () => {
    const player = await createUser(t);
    expect(
      (await call(player, "POST", "/api/chat", { prompt: "I open the door", chat_mode: "chat" })).statusCode,
    ).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const report = (
      await call(
        admin,
        "GET",
        `/api/admin/usage?from=${today}&to=${today}&group_by=kind&user_id=${player.userId}`,
      )
    ).json();
    expect(report.rows.find((row: { key: string }) => row.key === "text")).toMatchObject({
      credits: 0.5,
      uses: 1,
    });
    expect(report.total_credits).toBe(0.5);
  });

  it("answers CSV with a column per kind, and audits the download", async () => {
    const res = await call(admin, "GET", `/api/admin/usage?${range}&group_by=user&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="storyverse-usage-user-2026-01-10-to-2026-01-12.csv"',
    );
    expect(res.body.split("\r\n")).toEqual([
      "account_id,email,text,pictures,clips,speech,films,other,credits,uses",
      `${spender.userId},${spender.email},0.5,6,3,0.5,0,0,10,9`,
      `${other.userId},${other.email},0.5,0,0,0,0,0,0.5,1`,
      "",
    ]);
    const days = (await call(admin, "GET", `/api/admin/usage?${range}&format=csv`)).body.split("\r\n");
    expect(days[0]).toBe("date,text,pictures,clips,speech,films,other,credits,uses");
    expect(days[2]).toBe("2026-01-11,0,-1.5,0,0,0,0,-1.5,0");
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({
      action: "export_usage",
      actor: admin.email,
      details: { from: "2026-01-10", to: "2026-01-12", group_by: "day" },
    });
  });

  it("refuses a range over 366 days, or backwards, with a 400 that says why", async () => {
    const long = await call(admin, "GET", "/api/admin/usage?from=2025-01-01&to=2026-01-02");
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toBe("A usage report covers at most 366 days; this range has 367.");
    const backwards = await call(admin, "GET", "/api/admin/usage?from=2026-01-12&to=2026-01-10");
    expect(backwards.json()).toMatchObject({ detail: "from must be on or before to" });
    expect((await call(admin, "GET", "/api/admin/usage?from=2026-02-30")).statusCode).toBe(400);
    expect((await call(admin, "GET", "/api/admin/usage?group_by=week")).statusCode).toBe(400);
  });
});

describe("health", () => {
  it("shows vendor calls, the queue, storage and event streams, and queues a failed job again (audited)", async () => {
    const player = await createUser(t);
    expect(
      (await call(player, "POST", "/api/chat", { prompt: "I look around", chat_mode: "chat" })).statusCode,
    ).toBe(200);
    const before = (await call(admin, "GET", "/api/admin/health")).json();
    const stream = await openEventStream(base, player.token);
    streams.push(stream);
    expect(stream.status).toBe(200);

    // A job kind that fails for good on its first try, then works once queued again.
    let tries = 0;
    const flaky: JobSpec<{ n: number }> = {
      name: `admin-test-${randomUUID().slice(0, 8)}`,
      payload: z.object({ n: z.number() }),
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: 30,
    };
    await t.jobs.work(flaky, async () => {
      tries += 1;
      if (tries === 1) throw new Error("the vendor said no");
    });
    const jobId = await t.jobs.send(flaky, { n: 1 });
    let failed: { id: string; kind: string; error: string | null }[] = [];
    for (let i = 0; i < 100 && !failed.some((job) => job.id === jobId); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      failed = (await call(admin, "GET", "/api/admin/health")).json().queue.failed;
    }
    expect(failed).toContainEqual(
      expect.objectContaining({ id: jobId, kind: flaky.name, error: "the vendor said no" }),
    );

    const health = (await call(admin, "GET", "/api/admin/health")).json();
    const text = health.vendors.find((row: { kind: string }) => row.kind === "text");
    expect(text).toMatchObject({ vendor: expect.any(String), errors: 0, error_rate: 0 });
    expect(text.calls).toBeGreaterThanOrEqual(2);
    expect(text.p50_ms).toEqual(expect.any(Number));
    expect(text.p95_ms).toBeGreaterThanOrEqual(text.p50_ms);
    expect(health.event_streams_open).toBe(before.event_streams_open + 1);
    expect(health.storage).toEqual({ used_bytes: expect.any(Number), accounts: expect.any(Number) });
    expect(Array.isArray(health.queue.waiting)).toBe(true);

    const retried = await call(admin, "POST", `/api/admin/jobs/${flaky.name}/${jobId}/retry`);
    expect(retried.json()).toEqual({ retried: true });
    for (let i = 0; i < 100 && tries < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tries).toBe(2);
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({ action: "retry_job", details: { kind: flaky.name, job_id: jobId } });
    // A job that is not failed (any more) cannot be retried.
    const again = await call(admin, "POST", `/api/admin/jobs/${flaky.name}/${jobId}/retry`);
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe("No failed job of this kind with this id");
  });
});

describe("moderation", () => {
  it("finds a share link by owner or link, takes it down with a reason: dead at once, its owner told why", async () => {
    const owner = await createUser(t);
    const story = (await call(owner, "POST", "/api/stories", { title: "Lantern road", context: "x" })).json()
      .story as { id: string };
    const made = (await call(owner, "POST", `/api/stories/${story.id}/share`)).json() as { url: string };
    const token = made.url.split("/s/")[1]!;
    expect((await call(undefined, "GET", `/api/shared/${token}`)).statusCode).toBe(200);

    const byOwner = (
      await call(admin, "GET", `/api/admin/shares?q=${encodeURIComponent(owner.email)}`)
    ).json();
    expect(byOwner.shares).toEqual([
      {
        token,
        url: made.url,
        story_id: story.id,
        story_title: "Lantern road",
        owner_id: owner.userId,
        owner_email: owner.email,
        created_at: expect.any(String),
        taken_down: null,
      },
    ]);
    const byLink = (await call(admin, "GET", `/api/admin/shares?q=${encodeURIComponent(made.url)}`)).json();
    expect(byLink.shares.map((share: { token: string }) => share.token)).toEqual([token]);
    expect((await call(admin, "GET", "/api/admin/shares?q=nobody-like-this")).json().shares).toEqual([]);

    const noReason = await call(admin, "DELETE", `/api/admin/shares/${token}`, { reason: " " });
    expect(noReason.statusCode).toBe(400);
    expect((await call(undefined, "GET", `/api/shared/${token}`)).statusCode).toBe(200);

    const down = await call(admin, "DELETE", `/api/admin/shares/${token}`, {
      reason: "Copied from a published book",
    });
    expect(down.json()).toEqual({ taken_down: true, story_title: "Lantern road" });
    const gone = await call(undefined, "GET", `/api/shared/${token}`);
    expect(gone.statusCode).toBe(404);
    expect((await call(undefined, "GET", `/s/${token}`)).statusCode).toBe(404);
    expect(
      (await call(admin, "GET", `/api/admin/shares?q=${encodeURIComponent(owner.email)}`)).json().shares,
    ).toEqual([]);

    // The owner's Share dialog says why, and the story cannot be shared again.
    const seen = (await call(owner, "GET", `/api/stories/${story.id}/share`)).json();
    expect(seen).toMatchObject({
      shared: false,
      taken_down: { reason: "Copied from a published book", at: expect.any(String) },
    });
    const again = await call(owner, "POST", `/api/stories/${story.id}/share`);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(
      "An administrator took this story's link down: Copied from a published book. It cannot be shared again.",
    );
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({
      action: "take_down_share",
      actor: admin.email,
      target: owner.email,
      target_id: owner.userId,
      details: { story_id: story.id, story_title: "Lantern road" },
      reason: "Copied from a published book",
    });
    // Taking it down twice finds no live link.
    expect((await call(admin, "DELETE", `/api/admin/shares/${token}`, { reason: "again" })).statusCode).toBe(
      404,
    );
  });

  it("finds links by the story's title, lists the taken-down ones, and lifts a takedown: the link works again", async () => {
    const owner = await createUser(t);
    const title = `Harbour of glass ${randomUUID().slice(0, 8)}`;
    const story = (await call(owner, "POST", "/api/stories", { title, context: "x" })).json().story as {
      id: string;
    };
    const made = (await call(owner, "POST", `/api/stories/${story.id}/share`)).json() as { url: string };
    const token = made.url.split("/s/")[1]!;
    const byTitle = (
      await call(admin, "GET", `/api/admin/shares?q=${encodeURIComponent(title.slice(9).toUpperCase())}`)
    ).json();
    expect(byTitle.shares.map((share: { token: string }) => share.token)).toEqual([token]);
    expect((await call(admin, "GET", "/api/admin/shares?status=sometimes")).statusCode).toBe(400);

    await call(admin, "DELETE", `/api/admin/shares/${token}`, { reason: "Looked like spam" });
    const down = (
      await call(admin, "GET", `/api/admin/shares?status=taken_down&q=${encodeURIComponent(title)}`)
    ).json();
    expect(down.shares).toEqual([
      expect.objectContaining({ token, taken_down: { at: expect.any(String), reason: "Looked like spam" } }),
    ]);
    expect(
      (await call(admin, "GET", `/api/admin/shares?q=${encodeURIComponent(title)}`)).json().shares,
    ).toEqual([]);

    const lifted = await call(admin, "POST", `/api/admin/shares/${token}/lift`, {
      reason: "It was the author's",
    });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toEqual({ lifted: true, story_title: title });
    expect((await call(undefined, "GET", `/api/shared/${token}`)).statusCode).toBe(200);
    const seen = (await call(owner, "GET", `/api/stories/${story.id}/share`)).json();
    expect(seen).toMatchObject({ shared: true, url: made.url });
    expect(seen.taken_down).toBeUndefined();
    const [entry] = await auditEntries();
    expect(entry).toMatchObject({
      action: "lift_takedown",
      target: owner.email,
      reason: "It was the author's",
    });
    // Lifting a live link again finds nothing to lift.
    expect((await call(admin, "POST", `/api/admin/shares/${token}/lift`)).statusCode).toBe(404);

    // A takedown the owner has since replaced with a newer link cannot be lifted over it.
    await call(admin, "DELETE", `/api/admin/shares/${token}`, { reason: "Again" });
    await t.ctx.db.execute(sql`update share_links set taken_down_at = null where story_id = ${story.id}`);
    const newer = (await call(owner, "POST", `/api/stories/${story.id}/share`)).json() as { url: string };
    await t.ctx.db.execute(
      sql`update share_links set taken_down_at = now(), taken_down_reason = 'Again' where story_id = ${story.id} and revoked_at is not null`,
    );
    expect((await call(admin, "POST", `/api/admin/shares/${token}/lift`)).statusCode).toBe(404);
    expect((await call(undefined, "GET", `/api/shared/${newer.url.split("/s/")[1]}`)).statusCode).toBe(200);
  });
});

describe("a forced password reset", () => {
  it("ends the sessions, refuses the old password with a clear answer, and mails a link that sets a new one", async () => {
    const player = await createUser(t);
    const res = await call(admin, "POST", `/api/admin/users/${player.userId}/password-reset`, {
      reason: "Password seen in a leak",
    });
    expect(res.json()).toEqual({ sessions_ended: 1, mail_sent_to: player.email });
    expect((await call(player, "GET", "/api/profile")).statusCode).toBe(401);

    const login = (password: string) =>
      t.app.inject({ method: "POST", url: "/api/login", payload: { email: player.email, password } });
    const refused = await login(player.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(
      "An administrator has asked you to set a new password. Use the link we emailed you, or choose Forgot password for a new one.",
    );
    expect((await login("a wrong guess")).statusCode).toBe(401);

    const mail = await t.smtp.waitForMail(player.email);
    const link = new URL(linkFrom(mail, `${t.config.appUrl}/forgot-password`)).searchParams.get("token")!;
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset-password",
      payload: { token: link, password: "a brand new secret" },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login("a brand new secret")).statusCode).toBe(200);
    expect((await login(player.password)).statusCode).toBe(401);

    const [entry] = await auditEntries();
    expect(entry).toMatchObject({
      action: "force_password_reset",
      target_id: player.userId,
      details: { sessions_ended: 1 },
      reason: "Password seen in a leak",
    });
    const self = await call(admin, "POST", `/api/admin/users/${admin.userId}/password-reset`);
    expect(self.statusCode).toBe(409);
  });
});

describe("deleting an account from the console", () => {
  it("needs the email typed again, then deletes as the owner could, keeping the ledger anonymised (audited)", async () => {
    const player = await createUser(t);
    const story = (await call(player, "POST", "/api/stories", { title: "Gone soon", context: "x" })).json()
      .story;
    const wrong = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Asked by mail",
      confirm_email: "someone-else@example.com",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe("Type the account's email exactly to confirm. Nothing was deleted.");
    expect((await call(player, "GET", `/api/stories/${story.id}`)).statusCode).toBe(200);

    const res = await call(admin, "DELETE", `/api/admin/users/${player.userId}`, {
      reason: "Asked by mail",
      confirm_email: player.email.toUpperCase(),
    });
    expect(res.json()).toEqual({ deleted: true, ledger_rows_kept: 1 });
    expect((await call(player, "GET", "/api/profile")).statusCode).toBe(401);
    expect((await call(admin, "GET", `/api/admin/users/${player.userId}`)).statusCode).toBe(404);
    const kept = await t.ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from closed_account_ledger`,
    );
    expect(Number(kept.rows[0]!.n)).toBeGreaterThanOrEqual(1);

    const entries = await auditEntries();
    expect(entries[0]).toMatchObject({
      action: "delete_user",
      actor: admin.email,
      target: "a deleted account",
      target_id: null,
      details: { ledger_rows_kept: 1 },
      reason: "Asked by mail",
    });
    // No row of the log names the account any more.
    expect(JSON.stringify(entries)).not.toContain(player.email);
    expect(JSON.stringify(entries)).not.toContain(player.userId);

    const self = await call(admin, "DELETE", `/api/admin/users/${admin.userId}`, {
      reason: "oops",
      confirm_email: admin.email,
    });
    expect(self.statusCode).toBe(409);
  });
});
