// A queued Studio batch whose worker dies mid-job (the process is killed while the vendor paints): once a
// worker runs again, the job is retried within the dead-worker time (60 s in production, 3 s here) and the user gets the
// batch for the price paid, once, with one set of images (none left over from the dead try).
import { afterEach, expect, it } from "vitest";
import { createTestApp, TEST_JOB_POLLING_SECONDS, type TestApp } from "../../test/app";
import { bearer, createUser } from "../../test/factories";
import { ledgerSum } from "../credits/repo";
import { type JobQueue, startJobQueue } from "../jobs/queue";
import { startWorkers } from "../jobs/workers";
import { createSmtpMailer } from "../mail/mailer";
import { saveImage } from "../media/service";
import type { ImageProvider } from "../providers/types";

const DEAD_WORKER_SECONDS = 3;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

it("a batch job cut off by a crash is finished by the next worker, charged once", async () => {
  // A short dead-worker window (production: 60 s), so the retry comes within seconds.
  const t: TestApp = await createTestApp({ env: { DEAD_WORKER_SECONDS: String(DEAD_WORKER_SECONDS) } });
  cleanups.push(() => t.cleanup());
  const user = await createUser(t);

  // The painter takes the job and the process "dies": the first worker never hears back.
  const painter = t.providers.image;
  let started!: () => void;
  const painting = new Promise<void>((resolve) => {
    started = resolve;
  });
  const dying: ImageProvider = {
    name: painter.name,
    generate: () => {
      started();
      return new Promise(() => {});
    },
  };
  t.providers.image = dying;

  const accepted = await t.app.inject({
    method: "POST",
    url: "/api/studio/generate-image",
    headers: { ...bearer(user.token), prefer: "respond-async" },
    payload: { prompt: "A ship in a storm", batch_size: 2 },
  });
  expect(accepted.statusCode, accepted.body).toBe(202);
  const batchId = accepted.json().message_id as string;
  await painting;
  await t.jobs.stop(100);
  // What a try that died after saving its first image leaves in the gallery.
  const [leftover] = await painter.generate({ prompt: "A ship in a storm", count: 1, references: [] });
  await saveImage(
    t.ctx,
    t.ctx.db,
    {
      userId: user.userId,
      source: "studio",
      storyId: null,
      storyTitle: null,
      messageId: batchId,
      description: "A ship in a storm",
    },
    leftover!.data,
  );

  // A new worker process starts on the same database, with a healthy painter.
  t.providers.image = painter;
  const revived: JobQueue = await startJobQueue(t.database, {
    pollingIntervalSeconds: TEST_JOB_POLLING_SECONDS,
    deadWorkerSeconds: DEAD_WORKER_SECONDS,
    maintenanceIntervalSeconds: 1,
  });
  cleanups.push(() => revived.stop(5_000));
  await startWorkers(revived, {
    ...t.ctx,
    jobs: revived,
    mailer: createSmtpMailer(t.smtp.url, t.config.mailFrom),
  });

  const deadline = Date.now() + (DEAD_WORKER_SECONDS + 60) * 1000;
  let batch: { status: string; images: string[] } | undefined;
  while (Date.now() < deadline) {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/studio/batches/${batchId}`,
      headers: bearer(user.token),
    });
    batch = res.json();
    if (batch?.status !== "pending") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(batch?.status).toBe("completed");
  expect(batch?.images).toHaveLength(2);
  const gallery = await t.app.inject({ method: "GET", url: "/api/user/images", headers: bearer(user.token) });
  expect(gallery.json().images).toHaveLength(2);
  const balance = await t.app.inject({
    method: "GET",
    url: "/api/credit-balance",
    headers: bearer(user.token),
  });
  expect(balance.json().remaining).toBe(12);
  expect(await ledgerSum(t.ctx.db, user.userId)).toBe(120);
}, 120_000);
