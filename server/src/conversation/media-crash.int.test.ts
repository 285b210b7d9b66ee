// A turn whose worker dies mid-job (the process is killed while the clip is made, or between the scene
// prompt and the picture): once a worker runs again, the job is retried within the dead-worker time (60 s in
// production, 3 s here), resumes from what it already made (the scene image, the scene prompt), and the user
// gets the media for the price they paid, once.
import { expect, it } from "vitest";
import { bearer, createUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import { crashTestApp, hangingCall, REVIVAL_WAIT_MS, reviveWorker } from "../../test/worker-crash";
import type { ImageProvider, TextProvider, VideoProvider } from "../providers/types";
import { findMessageById } from "./repo";

it("a video job cut off by a crash is finished by the next worker within the dead-worker time", async () => {
  const t = await crashTestApp();
  const user = await createUser(t);

  // The animator starts the clip and then the process "dies": the first worker never hears back.
  const animator = t.providers.video;
  const animating = hangingCall();
  const dying: VideoProvider = {
    name: animator.name,
    start: animating.hang,
    poll: (taskId) => animator.poll(taskId),
  };
  t.providers.video = dying;

  const turn = (
    await t.app.inject({
      method: "POST",
      url: "/api/chat",
      headers: bearer(user.token),
      payload: { prompt: "The ship sails into the storm", chat_mode: "video" },
    })
  ).json();
  await animating.started;
  await t.jobs.stop(100);

  // A new worker process starts on the same database, with healthy providers.
  t.providers.video = animator;
  await reviveWorker(t);

  const status = await waitForMedia(
    t,
    user.token,
    `/api/chat/media-status/${turn.message_id}`,
    REVIVAL_WAIT_MS,
  );
  expect(status.media_generation_completed).toBe(true);
  expect(status.video_url).toBeTruthy();
  const images = await t.app.inject({ method: "GET", url: "/api/user/images", headers: bearer(user.token) });
  // The scene drawn before the crash was reused, not drawn (or paid for) again.
  expect(images.json().images).toHaveLength(1);
  const balance = await t.app.inject({
    method: "GET",
    url: "/api/credit-balance",
    headers: bearer(user.token),
  });
  expect(balance.json().remaining).toBe(12);
}, 120_000);

it("an image job cut off between its scene prompt and its picture is finished by the next worker with that scene, charged once", async () => {
  const t = await crashTestApp();
  const user = await createUser(t);

  // The scene prompt is written (and kept), then the process "dies" while the picture is painted.
  const writer = t.providers.text;
  const painter = t.providers.image;
  const sceneRequests: string[] = [];
  const counting: TextProvider = {
    name: writer.name,
    purposes: writer.purposes,
    stream: (request) => writer.stream(request),
    async complete(request) {
      const system = request.messages[0]?.content ?? "";
      if (request.purpose === "scene") sceneRequests.push(system);
      return writer.complete(request);
    },
  };
  t.providers.text = counting;
  const painting = hangingCall();
  const hanging: ImageProvider = { name: painter.name, generate: painting.hang };
  t.providers.image = hanging;

  const turn = (
    await t.app.inject({
      method: "POST",
      url: "/api/chat",
      headers: bearer(user.token),
      payload: { prompt: "A lighthouse burns on the cliff", chat_mode: "image" },
    })
  ).json();
  await painting.started;
  await t.jobs.stop(100);
  const kept = (await findMessageById(t.ctx.db, turn.message_id))!;
  expect(kept.mediaStatus).toBe("pending");
  expect(kept.sceneDescription).toContain("lighthouse burns on the cliff");
  expect(sceneRequests).toHaveLength(1);

  // A new worker process starts on the same database, with a healthy painter.
  t.providers.image = painter;
  await reviveWorker(t);

  const status = await waitForMedia(
    t,
    user.token,
    `/api/chat/media-status/${turn.message_id}`,
    REVIVAL_WAIT_MS,
  );
  expect(status.media_generation_completed).toBe(true);
  expect(status.image_url).toBeTruthy();
  // The kept scene was painted; the illustrator was not asked again.
  expect(sceneRequests).toHaveLength(1);
  expect((await findMessageById(t.ctx.db, turn.message_id))!.sceneDescription).toBe(kept.sceneDescription);
  const images = await t.app.inject({ method: "GET", url: "/api/user/images", headers: bearer(user.token) });
  expect(images.json().images).toHaveLength(1);
  const balance = await t.app.inject({
    method: "GET",
    url: "/api/credit-balance",
    headers: bearer(user.token),
  });
  // One image turn, charged once: 15 - 1.5.
  expect(balance.json().remaining).toBe(13.5);
}, 120_000);
