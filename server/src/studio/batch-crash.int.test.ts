// A queued Studio batch whose worker dies mid-job (the process is killed while the vendor paints): once a
// worker runs again, the job is retried within the dead-worker time (60 s in production, 3 s here) and the user gets the
// batch for the price paid, once, with one set of images (none left over from the dead try).
import { expect, it } from "vitest";
import { bearer, createUser } from "../../test/factories";
import { crashTestApp, hangingCall, REVIVAL_WAIT_MS, reviveWorker } from "../../test/worker-crash";
import { ledgerSum } from "../credits/repo";
import { saveImage } from "../media/service";
import type { ImageProvider } from "../providers/types";

it("a batch job cut off by a crash is finished by the next worker, charged once", async () => {
  const t = await crashTestApp();
  const user = await createUser(t);

  // The painter takes the job and the process "dies": the first worker never hears back.
  const painter = t.providers.image;
  const painting = hangingCall();
  const dying: ImageProvider = { name: painter.name, generate: painting.hang };
  t.providers.image = dying;

  const accepted = await t.app.inject({
    method: "POST",
    url: "/api/studio/generate-image",
    headers: { ...bearer(user.token), prefer: "respond-async" },
    payload: { prompt: "A ship in a storm", batch_size: 2 },
  });
  expect(accepted.statusCode, accepted.body).toBe(202);
  const batchId = accepted.json().message_id as string;
  await painting.started;
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
  await reviveWorker(t);

  const deadline = Date.now() + REVIVAL_WAIT_MS;
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
