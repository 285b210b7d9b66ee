// The streaming narrator over real HTTP (Accept: text/event-stream on the chat calls): words as they are
// written, then exactly the JSON answer; errors as the JSON call would answer them; and Stop (the client
// going away) at every point, with exactly one ledger outcome per turn.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, newCredentials } from "../../test/factories";
import { type EventStream, postTurnStream } from "../../test/sse";
import { findAccount, ledgerSum } from "../credits/repo";
import { grant, toTenths } from "../credits/service";
import { TEXT_PURPOSES } from "../providers/types";
import { allMessages } from "./repo";

let t: TestApp;
let base: string;

beforeAll(async () => {
  // The offline narrator at 50 words a second: slow enough to stop mid-text, quick enough for 50 turns.
  t = await createTestApp({
    workers: false,
    env: { REQUIRE_EMAIL_VERIFICATION: "false", OFFLINE_TEXT_WORDS_PER_SECOND: "50" },
  });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await t.cleanup();
});

async function newUser(extraCredits = 0) {
  const registered = await t.app.inject({ method: "POST", url: "/api/register", payload: newCredentials() });
  const user = {
    token: registered.json().access_token as string,
    userId: registered.json().user_id as string,
  };
  if (extraCredits > 0) {
    await grant(
      t.ctx.db,
      user.userId,
      toTenths(extraCredits),
      "admin_grant",
      `test:${user.userId}`,
      new Date(),
      "test",
    );
  }
  return user;
}

async function ledgerRows(userId: string) {
  const { rows } = await t.database.executeSql(
    "select transaction_type from credit_transactions where user_id = $1 and transaction_type <> 'signup_bonus'",
    [userId],
  );
  return rows.map((row) => String(row.transaction_type)).sort();
}

async function balance(userId: string) {
  const account = await findAccount(t.ctx.db, userId);
  // The ledger always adds up to the balance.
  expect(await ledgerSum(t.ctx.db, userId)).toBe(account!.balanceTenths);
  return account!.balanceTenths;
}

const turnBody = { prompt: "I light the lantern and step into the cave", chat_mode: "image" };
const deltas = (stream: EventStream) =>
  stream.events
    .filter((event) => event.event === "delta")
    .map((event) => (event.data as { text: string }).text);

/** Waits until the server has settled the turn the client walked away from. */
async function settled(userId: string, expectedTenths: number) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const account = await findAccount(t.ctx.db, userId);
    if (account!.balanceTenths === expectedTenths) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`balance never reached ${expectedTenths}`);
}

describe("the streaming narrator", () => {
  it("writes the story in several delta events, then done with exactly the JSON answer's shape", async () => {
    const user = await newUser();
    const stream = await postTurnStream(base, "/api/chat", user.token, turnBody);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const done = await stream.next((event) => event.event === "done");
    const body = done.data as Record<string, unknown> & { story_text: string; message_id: string };
    const written = deltas(stream);
    expect(written.length).toBeGreaterThan(5);
    expect(written.join("").trim()).toBe(body.story_text);
    expect(written.join("")).not.toMatch(/SCENE/i);

    const json = await t.app.inject({
      method: "POST",
      url: "/api/chat",
      headers: bearer(user.token),
      payload: turnBody,
    });
    expect(Object.keys(body).sort()).toEqual(Object.keys(json.json()).sort());
    expect(body).toMatchObject({
      success: true,
      quota_exceeded: false,
      media_generation: { status: "started", type: "image" },
      quota_info: { cost: 1.5, charged: 1.5, remaining: 13.5 },
    });
    const answer = (await allMessages(t.ctx.db, user.userId, null)).find((m) => m.id === body.message_id);
    expect(answer).toMatchObject({ content: body.story_text, mediaStatus: "pending", stopped: false });
  });

  it("streams a story turn the same way", async () => {
    const user = await newUser();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: bearer(user.token),
      payload: { title: "The Ember Crown", context: "A dragon-haunted kingdom" },
    });
    const storyId = created.json().story.id as string;
    const stream = await postTurnStream(base, `/api/stories/${storyId}/chat`, user.token, turnBody);
    const done = await stream.next((event) => event.event === "done");
    expect(deltas(stream).join("").trim()).toBe((done.data as { story_text: string }).story_text);
    // Another player's story is refused before any stream starts: a plain 404, as for a JSON call.
    const other = await newUser();
    const foreign = await fetch(`${base}/api/stories/${storyId}/chat`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${other.token}`,
        accept: "text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify(turnBody),
    });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: "Story not found", code: "not_found" });
  });

  it("streams Retry and Continue as turns: words, then the JSON answer; Retry's is a new version", async () => {
    const user = await newUser();
    const created = await t.app.inject({
      method: "POST",
      url: "/api/stories",
      headers: bearer(user.token),
      payload: { title: "The Ember Crown", context: "A dragon-haunted kingdom" },
    });
    const storyId = created.json().story.id as string;
    const first = await postTurnStream(base, `/api/stories/${storyId}/chat`, user.token, {
      prompt: "I knock on the gate",
      chat_mode: "chat",
    });
    const firstDone = (await first.next((event) => event.event === "done")).data as { message_id: string };

    const retry = await postTurnStream(
      base,
      `/api/stories/${storyId}/messages/${firstDone.message_id}/retry`,
      user.token,
      { chat_mode: "chat" },
    );
    const retried = (await retry.next((event) => event.event === "done")).data as {
      story_text: string;
      message_id: string;
    };
    expect(deltas(retry).length).toBeGreaterThan(1);
    expect(deltas(retry).join("").trim()).toBe(retried.story_text);
    const versions = await t.app.inject({
      method: "GET",
      url: `/api/stories/${storyId}/messages/${retried.message_id}/versions`,
      headers: bearer(user.token),
    });
    expect(versions.json().versions).toHaveLength(2);

    const more = await postTurnStream(base, `/api/stories/${storyId}/continue`, user.token, {
      chat_mode: "chat",
    });
    const continued = (await more.next((event) => event.event === "done")).data as { story_text: string };
    expect(deltas(more).length).toBeGreaterThan(1);
    // Continue grows the newest answer in place: the stream carries the added words, the answer the whole message.
    expect(continued.story_text.endsWith(deltas(more).join("").trim())).toBe(true);
    expect(continued.story_text.startsWith(retried.story_text)).toBe(true);
    // Three paid chat turns (the first, the retry, the continuation), nothing refunded.
    expect(await ledgerRows(user.userId)).toEqual(["usage_chat", "usage_chat", "usage_chat"]);
    await balance(user.userId);
  });

  it("answers what the JSON call would in an error event: 402 with quota_exceeded and the balance", async () => {
    const user = await newUser();
    const video = { prompt: "go", chat_mode: "video" };
    for (let i = 0; i < 5; i += 1) {
      await t.app.inject({ method: "POST", url: "/api/chat", headers: bearer(user.token), payload: video });
    }
    const json = await t.app.inject({
      method: "POST",
      url: "/api/chat",
      headers: bearer(user.token),
      payload: video,
    });
    expect(json.statusCode).toBe(402);
    const stream = await postTurnStream(base, "/api/chat", user.token, video);
    const error = await stream.next((event) => event.event === "error");
    expect(error.data).toEqual({ status: 402, ...json.json() });
    expect(deltas(stream)).toEqual([]);
  });

  it("answers garbage Accept headers with the usual JSON, never a 5xx", async () => {
    const user = await newUser(20);
    for (const accept of [
      "garbage",
      "text/event-stream;q=0",
      "*/*",
      "text/event-stream-not",
      ";;;,,,",
      "x".repeat(3000),
      "application/json, text/event-stream;q=0.0",
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: { ...bearer(user.token), accept },
        payload: { prompt: "hello", chat_mode: "chat" },
      });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(res.json().story_text).toEqual(expect.any(String));
    }
  });
});

describe("a slow narrator", () => {
  it("keeps the stream alive with heartbeat comments before the first word and between words; the turn is delivered", async () => {
    const shared = { t, base };
    // The narrator waits at a gate before its first word and before its second.
    const gates = [0, 1].map(() => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open, opened };
    });
    t = await createTestApp({
      workers: false,
      env: { REQUIRE_EMAIL_VERIFICATION: "false", EVENT_HEARTBEAT_SECONDS: "1" },
      providers: {
        text: {
          name: "slow",
          purposes: TEXT_PURPOSES,
          complete: async () => "The door opens.\n\nSCENE: A door.",
          async *stream() {
            await gates[0]!.opened;
            yield "The door ";
            await gates[1]!.opened;
            yield "opens.\n\nSCENE: A door.";
          },
        },
      },
    });
    try {
      base = await t.app.listen({ port: 0, host: "127.0.0.1" });
      const user = await newUser();
      const before = await balance(user.userId);
      const stream = await postTurnStream(base, "/api/chat", user.token, turnBody);
      /** Waits for `count` more comments than now (the heartbeat's); fails after 10 s. */
      const heartbeats = async (count: number) => {
        const target = stream.comments() + count;
        for (let i = 0; i < 200 && stream.comments() < target; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(stream.comments()).toBeGreaterThanOrEqual(target);
      };
      await heartbeats(2);
      expect(deltas(stream)).toEqual([]);
      gates[0]!.open();
      await stream.next((event) => event.event === "delta");
      await heartbeats(2);
      gates[1]!.open();
      const done = await stream.next((event) => event.event === "done");
      expect(done.data).toMatchObject({
        story_text: "The door opens.",
        media_generation: { status: "started" },
      });
      expect((done.data as { stopped?: boolean }).stopped).toBeUndefined();
      expect(await balance(user.userId)).toBe(before - toTenths(CREDIT_COSTS.image));
    } finally {
      for (const gate of gates) gate.open();
      await t.cleanup();
      ({ t, base } = shared);
    }
  }, 60_000);
});

describe("Stop", () => {
  it("before the first word: nothing is kept and the whole turn is refunded", async () => {
    // A narrator that takes a second per word, so the client is surely gone before the first one.
    const shared = { t, base };
    t = await createTestApp({
      workers: false,
      env: { REQUIRE_EMAIL_VERIFICATION: "false", OFFLINE_TEXT_WORDS_PER_SECOND: "1" },
    });
    try {
      base = await t.app.listen({ port: 0, host: "127.0.0.1" });
      const user = await newUser();
      const before = await balance(user.userId);
      const stream = await postTurnStream(base, "/api/chat", user.token, turnBody);
      stream.close();
      // Charged when the turn started, refunded in full once the server noticed the client left.
      await settled(user.userId, before);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await balance(user.userId)).toBe(before);
      expect(await allMessages(t.ctx.db, user.userId, null)).toEqual([]);
      expect(await ledgerRows(user.userId)).toEqual(["refund", "usage_image"]);
    } finally {
      await t.cleanup();
      ({ t, base } = shared);
    }
  });

  it("mid-text: keeps the words written so far as a stopped message, charges the text only, makes no media", async () => {
    const user = await newUser();
    const before = await balance(user.userId);
    const stream = await postTurnStream(base, "/api/chat", user.token, turnBody);
    await stream.next((event) => event.event === "delta" && deltas(stream).length >= 4);
    stream.close();
    const seen = deltas(stream).join("");
    await settled(user.userId, before - toTenths(CREDIT_COSTS.chat));
    const [question, answer] = await allMessages(t.ctx.db, user.userId, null);
    expect(question!.content).toBe(turnBody.prompt);
    expect(answer).toMatchObject({ stopped: true, mediaStatus: "none", chargedTenths: 5 });
    // Everything the player saw is kept, and the narrator wrote no more than a few words past it.
    expect(answer!.content.startsWith(seen.trim())).toBe(true);
    expect(answer!.content.split(/\s+/).length).toBeLessThan(seen.split(/\s+/).length + 5);
    const history = await t.app.inject({
      method: "GET",
      url: "/api/chat/history",
      headers: bearer(user.token),
    });
    expect(history.json().messages[1]).toMatchObject({
      stopped: true,
      media_status: "none",
      content: answer!.content,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await balance(user.userId)).toBe(before - 5);
    const jobs = await t.database.executeSql("select id from pgboss.job where id = $1", [answer!.id]);
    expect(jobs.rows).toEqual([]);
  });

  it("at done: the turn is delivered in full, once", async () => {
    const user = await newUser();
    const before = await balance(user.userId);
    const stream = await postTurnStream(base, "/api/chat", user.token, turnBody);
    const done = await stream.next((event) => event.event === "done");
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await balance(user.userId)).toBe(before - toTenths(CREDIT_COSTS.image));
    const [, answer] = await allMessages(t.ctx.db, user.userId, null);
    expect(answer).toMatchObject({
      id: (done.data as { message_id: string }).message_id,
      stopped: false,
      mediaStatus: "pending",
    });
  });

  it("50 concurrent turns stopped at random points: each has exactly one outcome and the ledger equals the balance", async () => {
    const user = await newUser(100);
    const before = await balance(user.userId);
    const streams = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const stream = await postTurnStream(base, "/api/chat", user.token, {
          ...turnBody,
          prompt: `turn ${i}`,
        });
        // A third stop at once, a third after a few words, a third never (done arrives).
        const plan = i % 3;
        if (plan === 0) stream.close();
        if (plan === 1) {
          await stream.next(() => deltas(stream).length >= 1 + (i % 7), 60_000).catch(() => undefined);
          stream.close();
        }
        if (plan === 2) await stream.next((event) => event.event === "done", 60_000);
        return stream;
      }),
    );
    // Let the server settle the turns whose clients went away.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const messages = (await allMessages(t.ctx.db, user.userId, null)).filter((m) => m.role === "assistant");
    const stopped = messages.filter((m) => m.stopped);
    const delivered = messages.filter((m) => !m.stopped);
    // Every turn that finished (done seen) was delivered; every turn is either delivered, stopped or gone.
    expect(delivered.length).toBeGreaterThanOrEqual(streams.filter((_, i) => i % 3 === 2).length);
    for (const message of stopped) expect(message).toMatchObject({ mediaStatus: "none", chargedTenths: 5 });
    for (const message of delivered)
      expect(message).toMatchObject({ mediaStatus: "pending", chargedTenths: 15 });
    // Each kept turn cost what it delivered; each turn stopped before its first word cost nothing.
    expect(await balance(user.userId)).toBe(before - 15 * delivered.length - 5 * stopped.length);
  }, 120_000);
});
