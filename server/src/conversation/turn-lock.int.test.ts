// Whether a turn is being written is known to every API process, not kept in one process's memory
// (issue #30): a turn recorded in turns_in_flight by another process (written here straight through the repo,
// as that process's turn does) holds Retry, Continue and Undo of that conversation with 409, and only that
// conversation's; once it ends they go on; a record a killed process left stops counting after its time.
import { STILL_WRITING_DETAIL } from "@storyverse/contract/story-craft";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isWriting, TURN_IN_FLIGHT_SILENT_MS, whileWriting } from "./turn-lock";
import { endTurnInFlight, startTurnInFlight } from "./turn-lock-repo";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ tickingClock: true });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const call = (user: TestUser, url: string, payload: object = {}) =>
  t.app.inject({ method: "POST", url, headers: bearer(user.token), payload });

async function storyWithTurn(user: TestUser) {
  const story = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title: "Harbour" },
  });
  const storyId = story.json().story.id as string;
  const turn = await call(user, `/api/stories/${storyId}/chat`, { prompt: "I listen", chat_mode: "chat" });
  return { storyId, messageId: turn.json().message_id as string };
}

describe("a turn being written, on any process", () => {
  it("holds Retry, Continue and Undo of its conversation only, until it ends", async () => {
    const user = await createUser(t);
    const { storyId, messageId } = await storyWithTurn(user);
    const other = await storyWithTurn(user);
    const id = crypto.randomUUID();
    await startTurnInFlight(t.ctx.db, { id, userId: user.userId, storyId, startedAt: t.ctx.clock.now() });

    for (const url of [
      `/api/stories/${storyId}/messages/${messageId}/retry`,
      `/api/stories/${storyId}/continue`,
      `/api/stories/${storyId}/undo`,
    ]) {
      const held = await call(user, url);
      expect(held.statusCode, url).toBe(409);
      expect(held.json()).toMatchObject({ detail: STILL_WRITING_DETAIL, code: "turn_in_progress" });
    }
    // Another story of the same player is not held.
    expect((await call(user, `/api/stories/${other.storyId}/undo`)).statusCode).toBe(200);

    await endTurnInFlight(t.ctx.db, id, new Date(0));
    expect((await call(user, `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
  });

  it("stops counting a record its process left behind (killed mid-turn) once it stopped beating", async () => {
    const user = await createUser(t);
    const { storyId } = await storyWithTurn(user);
    const startedAt = new Date(t.ctx.clock.now().getTime() - TURN_IN_FLIGHT_SILENT_MS - 1_000);
    await startTurnInFlight(t.ctx.db, { id: crypto.randomUUID(), userId: user.userId, storyId, startedAt });
    expect((await call(user, `/api/stories/${storyId}/undo`)).statusCode).toBe(200);
  });

  it("keeps a long turn counted while its process beats, however long it writes", async () => {
    const user = await createUser(t);
    const { storyId } = await storyWithTurn(user);
    // The writer's clock starts where its record is already silent, then moves on as a live process's does.
    let writerNow = new Date(Date.now() - TURN_IN_FLIGHT_SILENT_MS - 5_000);
    const writer = { db: t.ctx.db, clock: { ...t.ctx.clock, now: () => writerNow } };
    let finish: () => void = () => undefined;
    const writing = whileWriting(
      writer,
      user.userId,
      storyId,
      () => new Promise<void>((resolve) => (finish = resolve)),
      20,
    );
    await expect.poll(() => isWriting(t.ctx, user.userId, storyId)).toBe(false);
    // Silent that long, another process's turn sweeps the record away; the writer's next beat writes it again.
    await endTurnInFlight(t.ctx.db, crypto.randomUUID(), new Date());
    writerNow = new Date();
    await expect.poll(() => isWriting(t.ctx, user.userId, storyId)).toBe(true);
    expect((await call(user, `/api/stories/${storyId}/undo`)).statusCode).toBe(409);
    finish();
    await writing;
    expect(await isWriting(t.ctx, user.userId, storyId)).toBe(false);
  });
});
