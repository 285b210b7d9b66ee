// One outcome per clip charge (decision 0160): a clip job ends in the new clip or in a full refund, once,
// whatever the vendor or the process does. A vendor that fails refunds in full with its reason; a worker that
// dies mid-job is replaced by the next one, which makes the clip for the price paid, once; a job past its
// deadline is refunded once and a late finish keeps nothing. Also run on PostgreSQL (TEST_DATABASE_URL).
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { galleryImage } from "../../test/media";
import { crashTestApp, hangingCall, REVIVAL_WAIT_MS, reviveWorker } from "../../test/worker-crash";
import { ledgerSum } from "../credits/repo";
import { ProviderError, type VideoProvider } from "../providers/types";
import { CLIP_DEADLINE_MS, makeClip } from "./clip-job";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ env });
  cleanups.push(() => t.cleanup());
  return t;
}

type ClipJobBody = { status: string; detail: string | null; item: { id: string } | null };

async function clipJob(t: TestApp, user: TestUser, jobId: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/media/clips/${jobId}`,
    headers: bearer(user.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ClipJobBody;
}

async function waitForEnd(
  t: TestApp,
  user: TestUser,
  jobId: string,
  timeoutMs = 60_000,
): Promise<ClipJobBody> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const body = await clipJob(t, user, jobId);
    if (body.status !== "pending") return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`clip job ${jobId} did not end`);
}

async function videos(t: TestApp, user: TestUser): Promise<{ id: string }[]> {
  return (await t.app.inject({ method: "GET", url: "/api/user/videos", headers: bearer(user.token) })).json()
    .videos;
}

/** Starts a clip from a new picture of the user's; answers the job id. */
async function startClip(t: TestApp, user: TestUser): Promise<string> {
  const picture = await galleryImage(t, user.userId, "#b05030");
  const res = await t.app.inject({
    method: "POST",
    url: `/api/media/${picture.id}/animate`,
    headers: bearer(user.token),
    payload: { prompt: "the sea rises", camera: "push_in" },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().job_id;
}

describe("a vendor that fails", () => {
  it.each([
    [
      "the task fails",
      (offline: VideoProvider): VideoProvider => ({
        ...offline,
        name: offline.name,
        clipFeatures: offline.clipFeatures!,
        start: (request) => offline.start(request),
        poll: async () => ({
          status: "failed",
          error: "The AI provider could not make this video: blocked content",
        }),
      }),
    ],
    [
      "the task is refused",
      (offline: VideoProvider): VideoProvider => ({
        name: offline.name,
        clipFeatures: offline.clipFeatures!,
        start: async () => {
          throw new ProviderError("The AI provider could not make this video: blocked content", false);
        },
        poll: (taskId, signal) => offline.poll(taskId, signal),
      }),
    ],
  ])(
    "refunds the clip in full, once, with the vendor's reason, when %s",
    async (_case, failing) => {
      const t = await app();
      const user = await createUser(t);
      const { balance, refunds } = moneyOf(t);
      t.providers.video = failing(t.providers.video);
      const before = await balance(user);
      const start = await ledgerSum(t.ctx.db, user.userId);

      const jobId = await startClip(t, user);
      expect(await balance(user)).toBe(before - CREDIT_COSTS.video);
      const ended = await waitForEnd(t, user, jobId);
      expect(ended).toMatchObject({
        status: "failed",
        item: null,
        detail: "The AI provider could not make this video: blocked content",
      });
      expect(await balance(user)).toBe(before);
      expect(await refunds(user)).toEqual([
        { reference: `refund:${jobId}`, amount_tenths: CREDIT_COSTS.video * 10 },
      ]);
      expect(await videos(t, user)).toEqual([]);
      expect(await ledgerSum(t.ctx.db, user.userId)).toBe(start);
    },
    90_000,
  );
});

it("a clip job cut off by a crash is finished by the next worker, charged once, one clip", async () => {
  const t = await crashTestApp();
  const user = await createUser(t);
  const start = await ledgerSum(t.ctx.db, user.userId);

  // The animator takes the job and the process "dies": the first worker never hears back.
  const animator = t.providers.video;
  const animating = hangingCall();
  t.providers.video = {
    name: animator.name,
    clipFeatures: animator.clipFeatures!,
    start: animating.hang,
    poll: (taskId, signal) => animator.poll(taskId, signal),
  };
  const jobId = await startClip(t, user);
  await animating.started;
  await t.jobs.stop(100);

  // A new worker process starts on the same database, with a healthy animator.
  t.providers.video = animator;
  const deps = await reviveWorker(t);

  const ended = await waitForEnd(t, user, jobId, REVIVAL_WAIT_MS);
  expect(ended.status, ended.detail ?? "").toBe("completed");
  expect((await videos(t, user)).map((item) => item.id)).toEqual([ended.item!.id]);
  // A job delivered twice (a retry after the clip was kept) changes nothing.
  await makeClip(deps, { clipJobId: jobId }, { jobId, retryCount: 2, isLastAttempt: true });
  expect(await videos(t, user)).toHaveLength(1);
  expect(await ledgerSum(t.ctx.db, user.userId)).toBe(start - CREDIT_COSTS.video * 10);
  expect(await moneyOf(t).refunds(user)).toEqual([]);
}, 120_000);

it("a clip job past its deadline is refunded once, and a late finish keeps nothing", async () => {
  const t = await app();
  const user = await createUser(t);
  const start = await ledgerSum(t.ctx.db, user.userId);
  const animator = t.providers.video;
  t.providers.video = {
    name: animator.name,
    clipFeatures: animator.clipFeatures!,
    start: () => new Promise(() => {}),
    poll: (taskId, signal) => animator.poll(taskId, signal),
  };
  const jobId = await startClip(t, user);
  (t.clock as { advance: (ms: number) => void }).advance(CLIP_DEADLINE_MS);

  const ended = await clipJob(t, user, jobId);
  expect(ended).toMatchObject({
    status: "failed",
    detail: "The clip took too long to make. Please try again.",
  });
  expect(await clipJob(t, user, jobId)).toMatchObject({ status: "failed" });
  expect(await moneyOf(t).refunds(user)).toEqual([
    { reference: `refund:${jobId}`, amount_tenths: CREDIT_COSTS.video * 10 },
  ]);
  // The job tried again with a working animator finds the clip ended: no clip, no second refund.
  t.providers.video = animator;
  await makeClip(t.ctx, { clipJobId: jobId }, { jobId, retryCount: 1, isLastAttempt: false });
  expect(await videos(t, user)).toEqual([]);
  expect(await ledgerSum(t.ctx.db, user.userId)).toBe(start);
}, 60_000);
