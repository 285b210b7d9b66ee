// The Studio batch as a job (Prefer: respond-async), over real HTTP and a real database with the worker
// running: answered 202 at once and charged, the images pushed as a `studio` event to the user's open
// stream and readable from GET /api/studio/batches/{id}; images not made refunded once, keyed by the batch;
// bad ids a clear 404; the synchronous call unchanged beside it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type EventStream, openEventStream, type SseEvent } from "../../test/sse";
import { ledgerSum } from "../credits/repo";
import { type ImageProvider, ProviderError } from "../providers/types";

let t: TestApp;
let base: string;
let painter: ImageProvider;
const open: EventStream[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  painter = t.providers.image;
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await t.cleanup();
});

async function stream(user: TestUser) {
  const opened = await openEventStream(base, user.token);
  open.push(opened);
  return opened;
}

const queue = (user: TestUser, payload: object, prefer = "respond-async") =>
  t.app.inject({
    method: "POST",
    url: "/api/studio/generate-image",
    headers: { ...bearer(user.token), prefer },
    payload,
  });
const batch = (user: TestUser, id: string) =>
  t.app.inject({ method: "GET", url: `/api/studio/batches/${id}`, headers: bearer(user.token) });
const balance = async (user: TestUser): Promise<number> =>
  (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
    .remaining;
const studioEventOf = (id: string) => (event: SseEvent) =>
  event.event === "studio" && (event.data as { message_id: string }).message_id === id;

describe("Studio batches as jobs (Prefer: respond-async)", () => {
  it("answers 202 at once, charged; the images arrive as a studio event and from the batch call", async () => {
    const user = await createUser(t);
    const tab = await stream(user);
    const res = await queue(user, { prompt: "A lighthouse at dawn", batch_size: 2 });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.headers["preference-applied"]).toBe("respond-async");
    const accepted = res.json();
    expect(accepted).toMatchObject({ success: true, status: "pending", quota_info: { remaining: 12 } });

    const event = await tab.next(studioEventOf(accepted.message_id), 60_000);
    const data = event.data as { status: string; images: string[]; items: { url: string }[] };
    expect(data.status).toBe("completed");
    expect(data.images).toHaveLength(2);
    expect(data.items.map((item) => item.url)).toEqual(data.images);
    const image = await fetch(new URL(data.images[0]!, base));
    expect(image.headers.get("content-type")).toMatch(/^image\//);

    const read = await batch(user, accepted.message_id);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      status: "completed",
      content: "Here are your 2 images.",
      error: null,
    });
    expect(read.json().items).toHaveLength(2);
    // The conversation lists the prompt and the batch, as a batch made at once would be listed.
    const history = (
      await t.app.inject({ method: "GET", url: "/api/studio/messages", headers: bearer(user.token) })
    ).json().messages as { id: string; role: string; content: string; status?: string; images: string[] }[];
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ["user", "A lighthouse at dawn"],
      ["assistant", "Here are your 2 images."],
    ]);
    expect(history[1]).toMatchObject({ id: accepted.message_id, status: "completed" });
    expect(await balance(user)).toBe(12);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(120);
  }, 90_000);

  it("refunds the whole batch once when the images cannot be made, and says so by event", async () => {
    const user = await createUser(t);
    const tab = await stream(user);
    t.providers.image = {
      name: painter.name,
      generate: async () => {
        throw new ProviderError("The image service refused this prompt.", false);
      },
    };
    try {
      const accepted = (await queue(user, { prompt: "A forbidden picture", batch_size: 3 })).json();
      expect(accepted.quota_info.remaining).toBe(10.5);
      const event = await tab.next(studioEventOf(accepted.message_id), 60_000);
      expect(event.data).toEqual({
        message_id: accepted.message_id,
        status: "failed",
        images: [],
        items: [],
        error: "The image service refused this prompt.",
      });
      const read = (await batch(user, accepted.message_id)).json();
      expect(read).toMatchObject({ status: "failed", error: "The image service refused this prompt." });
      // The refund is pushed too: the balance is whole again.
      await tab.next((e) => e.event === "credits" && (e.data as { remaining: number }).remaining === 15);
      expect(await balance(user)).toBe(15);
      expect(await ledgerSum(t.ctx.db, user.userId)).toBe(150);
    } finally {
      t.providers.image = painter;
    }
  }, 90_000);

  it("refunds only the images not made when the vendor sends fewer than asked", async () => {
    const user = await createUser(t);
    const tab = await stream(user);
    t.providers.image = {
      name: painter.name,
      generate: async (request) => (await painter.generate({ ...request, count: 1 })).slice(0, 1),
    };
    try {
      const accepted = (await queue(user, { prompt: "Two foxes", batch_size: 2 })).json();
      const event = await tab.next(studioEventOf(accepted.message_id), 60_000);
      expect((event.data as { images: string[] }).images).toHaveLength(1);
      const read = (await batch(user, accepted.message_id)).json();
      expect(read.content).toBe(
        "Here is 1 image of the 2 you asked for; the 1 that could not be made was refunded.",
      );
      expect(await balance(user)).toBe(13.5);
      expect(await ledgerSum(t.ctx.db, user.userId)).toBe(135);
    } finally {
      t.providers.image = painter;
    }
  }, 90_000);

  it("refuses what the synchronous call refuses, before charging or queueing anything", async () => {
    const user = await createUser(t);
    const tooMany = await queue(user, { prompt: "Eleven", batch_size: 9 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().detail).toMatch(/batch_size/);
    const foreign = await queue(user, {
      prompt: "Someone else's",
      input_images: ["00000000-0000-4000-8000-000000000000"],
    });
    expect(foreign.statusCode).toBe(400);
    expect(await balance(user)).toBe(15);
    const history = (
      await t.app.inject({ method: "GET", url: "/api/studio/messages", headers: bearer(user.token) })
    ).json().messages;
    expect(history).toEqual([]);
  });

  it("answers 404 for a batch that is not the caller's, not a batch, or not an id", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const accepted = (await queue(owner, { prompt: "Mine alone" })).json();
    expect((await batch(other, accepted.message_id)).statusCode).toBe(404);
    expect((await batch(owner, "00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    const garbage = await batch(owner, "not-an-id");
    expect(garbage.statusCode).toBe(404);
    expect(garbage.json().detail).toBe("Batch not found");
    // The prompt's own message is not a batch.
    const history = (
      await t.app.inject({ method: "GET", url: "/api/studio/messages", headers: bearer(owner.token) })
    ).json().messages as { id: string; role: string }[];
    const prompt = history.find((m) => m.role === "user")!;
    expect((await batch(owner, prompt.id)).statusCode).toBe(404);
  });

  it("keeps the spec's synchronous answer without the header (or with another preference)", async () => {
    const user = await createUser(t);
    for (const prefer of ["", "return=minimal", "respond-async-please"]) {
      const res = await queue(user, { prompt: "At once" }, prefer);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, images: [expect.any(String)] });
    }
  });
});
