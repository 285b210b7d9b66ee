// Credits under faults for chat and story turns, against the real app, database and worker: every charge
// ends delivered or refunded exactly once, whatever fails, races or gets deleted while the media job runs.
// The image model is the real offline painter, held at a gate so a test can act while a job is mid-run.
import http from "node:http";
import { MEDIA_CLIENT_GIVE_UP_MS, MEDIA_DEADLINE_MS } from "@storyverse/contract/chat";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { ddlRetryingDeadlocks } from "../../test/database";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import { waitForMedia } from "../../test/media";
import { ledgerSum } from "../credits/repo";
import { sweepUnsettledCharges } from "../credits/service";
import { type ImageProvider, ProviderError } from "../providers/types";
import { STORY_DELETED_DETAIL, sendTurn } from "./turn";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

// A test that fails while images are held must not leave the painter held for the tests after it.
let releaseHeld: (() => void) | undefined;
afterEach(() => {
  releaseHeld?.();
  releaseHeld = undefined;
});

/** Holds every image request at a gate until released, then paints with the real offline painter. */
function holdImages() {
  const painter = t.providers.image;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const held: ImageProvider = {
    name: painter.name,
    async generate(request) {
      entered();
      await released;
      return painter.generate(request);
    },
  };
  t.providers.image = held;
  releaseHeld = () => {
    t.providers.image = painter;
    release();
  };
  return { started, release: releaseHeld };
}

/** Holds the narrator's whole answers at a gate until released (streams go through unheld). */
function holdNarrator() {
  const narrator = t.providers.text;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const writing = new Promise<void>((resolve) => {
    entered = resolve;
  });
  t.providers.text = {
    name: narrator.name,
    purposes: narrator.purposes,
    async complete(request) {
      entered();
      await released;
      return narrator.complete(request);
    },
    stream: (request) => narrator.stream(request),
  };
  const releaseAll = () => {
    t.providers.text = narrator;
    release();
  };
  return { writing, release: releaseAll };
}

const storyRows = async (storyId: string) =>
  (await t.database.executeSql("select id from chat_messages where story_id = $1", [storyId])).rows;

const get = async (user: TestUser, url: string) =>
  (await t.app.inject({ method: "GET", url, headers: bearer(user.token) })).json();
const balance = (user: TestUser) => moneyOf(t).balance(user);
const refunds = (user: TestUser) => moneyOf(t).refunds(user);

async function newStory(user: TestUser) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/stories",
    headers: bearer(user.token),
    payload: { title: "The Lantern", context: "A cave" },
  });
  return res.json().story.id as string;
}

/**
 * Waits until every media job queued so far has finished running: the worker runs one media job at a time,
 * so once a later turn's media is done, the earlier job's handler has returned (even if it was cancelled).
 */
async function drainMediaJobs() {
  const sentinel = await createUser(t);
  const turn = await t.app.inject({
    method: "POST",
    url: "/api/chat",
    headers: bearer(sentinel.token),
    payload: { prompt: "A lighthouse", chat_mode: "image" },
  });
  await waitForMedia(t, sentinel.token, `/api/chat/media-status/${turn.json().message_id}`);
}

describe("a turn's charge has exactly one outcome", () => {
  it("a turn whose media job cannot be queued leaves no messages and refunds once, keyed by its answer", async () => {
    const user = await createUser(t);
    // The database refuses the job row: messages and job share one transaction, so neither may remain.
    await ddlRetryingDeadlocks(
      t.database,
      `
      create or replace function refuse_media_jobs() returns trigger language plpgsql as $$
      begin
        if new.name = 'chat-generate-media' then raise exception 'queue unavailable'; end if;
        return new;
      end $$;
      create trigger refuse_media_jobs before insert on pgboss.job
        for each row execute function refuse_media_jobs();
    `,
    );
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: bearer(user.token),
        payload: { prompt: "Into the cave", chat_mode: "image" },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().detail).toBeTruthy();
    } finally {
      await ddlRetryingDeadlocks(t.database, "drop trigger refuse_media_jobs on pgboss.job");
    }
    expect((await get(user, "/api/chat/history")).messages).toEqual([]);
    expect(await balance(user)).toBe(15);
    const rows = await refunds(user);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_tenths: 15 });
    expect(rows[0]!.reference).toMatch(/^refund:[0-9a-f-]{36}$/);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(150);
  });

  it("media still pending at the client's last poll has timed out and been refunded; the job finishing later adds nothing", async () => {
    const user = await createUser(t);
    const gate = holdImages();
    const turn = (
      await t.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: bearer(user.token),
        payload: { prompt: "The dragon wakes", chat_mode: "image" },
      })
    ).json();
    await gate.started;
    // The client polls for at most MEDIA_CLIENT_GIVE_UP_MS; its last poll must hear the outcome.
    t.clock.advance(MEDIA_CLIENT_GIVE_UP_MS);
    const statusUrl = `/api/chat/media-status/${turn.message_id}`;
    expect(await get(user, statusUrl)).toMatchObject({
      media_generation_failed: true,
      media_generation_error: "Media generation timed out. Please try again.",
      image_url: null,
    });
    expect(await balance(user)).toBe(14.5);

    // The painter was only slow: the job now finishes, but the refunded message must not get media too.
    gate.release();
    await drainMediaJobs();
    expect(await get(user, statusUrl)).toMatchObject({ media_generation_failed: true, image_url: null });
    expect((await get(user, "/api/user/images")).images).toEqual([]);
    expect(await balance(user)).toBe(14.5);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(145);
  }, 120_000);

  it("the server's media deadline falls before the client's last poll", async () => {
    // Not a timing test: the two constants are what the client and the server actually use.
    expect(MEDIA_DEADLINE_MS).toBeLessThan(MEDIA_CLIENT_GIVE_UP_MS);
  });

  it("deleting a story while its media job runs refunds the media part and keeps no media", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const gate = holdImages();
    const turn = (
      await t.app.inject({
        method: "POST",
        url: `/api/stories/${storyId}/chat`,
        headers: bearer(user.token),
        payload: { prompt: "The dragon wakes", chat_mode: "video" },
      })
    ).json();
    await gate.started;
    expect(await balance(user)).toBe(12);

    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/stories/${storyId}`,
      headers: bearer(user.token),
    });
    expect(deleted.statusCode).toBe(200);
    // The text was delivered (0.5); the video it never received is refunded.
    expect(await balance(user)).toBe(14.5);

    gate.release();
    await drainMediaJobs();
    expect((await get(user, "/api/user/images")).images).toEqual([]);
    expect((await get(user, "/api/user/videos")).videos ?? []).toEqual([]);
    expect(await balance(user)).toBe(14.5);
    expect(await refunds(user)).toEqual([{ reference: `refund:${turn.message_id}`, amount_tenths: 25 }]);
  }, 120_000);

  it("deleting a story while its turn is being written stores nothing of the turn and refunds it whole, once", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const narrator = holdNarrator();
    let turn: Awaited<ReturnType<typeof t.app.inject>>;
    try {
      const sending = t.app.inject({
        method: "POST",
        url: `/api/stories/${storyId}/chat`,
        headers: bearer(user.token),
        payload: { prompt: "The dragon wakes", chat_mode: "image" },
      });
      await narrator.writing;
      expect(await balance(user)).toBe(13.5);
      const deleted = await t.app.inject({
        method: "DELETE",
        url: `/api/stories/${storyId}`,
        headers: bearer(user.token),
      });
      expect(deleted.statusCode).toBe(200);
      narrator.release();
      turn = await sending;
    } finally {
      narrator.release();
    }
    expect(turn.statusCode, turn.body).toBe(404);
    expect(turn.json().detail).toBe(STORY_DELETED_DETAIL);
    expect(await storyRows(storyId)).toEqual([]);
    await drainMediaJobs();
    expect((await get(user, "/api/user/images")).images).toEqual([]);
    expect(await balance(user)).toBe(15);
    const rows = await refunds(user);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_tenths: 15 });
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(150);
  }, 120_000);

  it("turns and deletions of their stories racing at random moments: one outcome per turn, no rows left", async () => {
    const gate = holdImages();
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t)));
    const stories = await Promise.all(users.map((user) => newStory(user)));
    const results = await Promise.all(
      users.map(async (user, i) => {
        const storyId = stories[i]!;
        const sending = t.app.inject({
          method: "POST",
          url: `/api/stories/${storyId}/chat`,
          headers: bearer(user.token),
          payload: { prompt: "Run", chat_mode: "image" },
        });
        await new Promise((resolve) => setTimeout(resolve, i * 7));
        const deleted = await t.app.inject({
          method: "DELETE",
          url: `/api/stories/${storyId}`,
          headers: bearer(user.token),
        });
        expect(deleted.statusCode).toBe(200);
        return (await sending).statusCode;
      }),
    );
    gate.release();
    await drainMediaJobs();
    for (const [i, user] of users.entries()) {
      expect(await storyRows(stories[i]!)).toEqual([]);
      const rows = await refunds(user);
      expect(rows.length).toBeLessThanOrEqual(1);
      // Delivered (the text's 0.5 kept, the media part refunded by the delete) or not kept at all.
      const expected = results[i] === 200 ? 14.5 : 15;
      expect(await balance(user), `turn answered ${results[i]}`).toBe(expected);
      expect(await ledgerSum(t.ctx.db, user.userId)).toBe(expected * 10);
    }
    expect((await get(users[0]!, "/api/user/images")).images).toEqual([]);
  }, 120_000);

  it("a story deletion that rolls back keeps its pending turn's uploaded references; one that commits removes them", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const gate = holdImages();
    const turn = await t.app.inject({
      method: "POST",
      url: `/api/stories/${storyId}/chat`,
      headers: bearer(user.token),
      payload: {
        prompt: "The knight from my sketch",
        chat_mode: "image",
        inputImages: [`data:image/png;base64,${png.toString("base64")}`],
      },
    });
    expect(turn.statusCode, turn.body).toBe(200);
    await gate.started;
    const [row] = (
      await t.database.executeSql("select reference_keys from chat_messages where id = $1", [
        turn.json().message_id,
      ])
    ).rows as { reference_keys: string[] }[];
    const upload = row!.reference_keys.find((key) => key.includes("/inputs/"))!;
    expect(upload).toBeTruthy();

    // The story's row refuses to go: the delete's transaction rolls back after the messages were deleted.
    await ddlRetryingDeadlocks(
      t.database,
      `
      create or replace function refuse_story_delete() returns trigger language plpgsql as $$
      begin raise exception 'story delete refused'; end $$;
      create trigger refuse_story_delete before delete on stories
        for each row execute function refuse_story_delete();
    `,
    );
    try {
      const refused = await t.app.inject({
        method: "DELETE",
        url: `/api/stories/${storyId}`,
        headers: bearer(user.token),
      });
      expect(refused.statusCode).toBe(500);
    } finally {
      await ddlRetryingDeadlocks(t.database, "drop trigger refuse_story_delete on stories");
    }
    expect(await storyRows(storyId)).toHaveLength(2);
    await expect(t.storage.size(upload)).resolves.toBeGreaterThan(0);

    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/stories/${storyId}`,
      headers: bearer(user.token),
    });
    expect(deleted.statusCode).toBe(200);
    await expect(t.storage.size(upload)).rejects.toThrow();
    gate.release();
    await drainMediaJobs();
    expect(await balance(user)).toBe(14.5);
  }, 120_000);

  it("many polls past the deadline racing a story deletion refund the media part exactly once", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const gate = holdImages();
    const turn = (
      await t.app.inject({
        method: "POST",
        url: `/api/stories/${storyId}/chat`,
        headers: bearer(user.token),
        payload: { prompt: "Run", chat_mode: "image" },
      })
    ).json();
    await gate.started;
    t.clock.advance(MEDIA_DEADLINE_MS + 1000);
    await Promise.all([
      ...Array.from({ length: 30 }, () =>
        t.app.inject({
          method: "GET",
          url: `/api/stories/${storyId}/media-status/${turn.message_id}`,
          headers: bearer(user.token),
        }),
      ),
      t.app.inject({ method: "DELETE", url: `/api/stories/${storyId}`, headers: bearer(user.token) }),
    ]);
    gate.release();
    await drainMediaJobs();
    expect(await balance(user)).toBe(14.5);
    expect(await refunds(user)).toEqual([{ reference: `refund:${turn.message_id}`, amount_tenths: 10 }]);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(145);
  }, 120_000);

  it("a client that disconnects mid-turn is charged once for a turn delivered to its history", async () => {
    const user = await createUser(t);
    const { writing, release } = holdNarrator();
    try {
      const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
      const body = JSON.stringify({ prompt: "The bridge", chat_mode: "image" });
      const request = http.request(`${address}/api/chat`, {
        method: "POST",
        headers: { ...bearer(user.token), "content-type": "application/json", "content-length": body.length },
      });
      request.on("error", () => {});
      request.end(body);
      // The browser tab closes while the narrator writes: the server finishes the turn it was paid for.
      await writing;
      request.destroy();
    } finally {
      release();
    }
    let history: { message_id: string }[] = [];
    for (let i = 0; i < 600 && history.length < 2; i++) {
      history = (await get(user, "/api/chat/history")).messages;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(history).toHaveLength(2);
    const status = await waitForMedia(t, user.token, `/api/chat/media-status/${history[1]!.message_id}`);
    expect(status.media_generation_completed).toBe(true);
    expect(await balance(user)).toBe(13.5);
    expect(await refunds(user)).toEqual([]);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(135);
  }, 120_000);

  it("a stopped turn whose refund cannot be written now is reported delivered; the sweep refunds it once later", async () => {
    const user = await createUser(t);
    // The ledger refuses refunds for a while.
    await ddlRetryingDeadlocks(
      t.database,
      `
      create or replace function refuse_refunds() returns trigger language plpgsql as $$
      begin
        if new.transaction_type = 'refund' then raise exception 'ledger unavailable'; end if;
        return new;
      end $$;
      create trigger refuse_refunds before insert on credit_transactions
        for each row execute function refuse_refunds();
    `,
    );
    let answer: Awaited<ReturnType<typeof sendTurn>>;
    try {
      const stop = new AbortController();
      answer = await sendTurn(
        t.ctx,
        {
          userId: user.userId,
          storyId: null,
          hooks: null,
          story: null,
          prompt: "The bridge",
          mode: "image",
          references: [],
        },
        // The player stops the narrator after its first words.
        { onText: () => stop.abort(), stop: stop.signal },
      );
    } finally {
      await ddlRetryingDeadlocks(t.database, "drop trigger refuse_refunds on credit_transactions");
    }
    expect(answer).toMatchObject({ success: true, stopped: true, media_generation: { status: "none" } });
    expect(answer.story_text).not.toBe("");
    const history = (await get(user, "/api/chat/history")).messages;
    expect(history[1]).toMatchObject({ message_id: answer.message_id, stopped: true });
    // Charged 1.5 for now; the media part (1.0) is still owed, in the charge's unsettled row.
    expect(await balance(user)).toBe(13.5);
    expect(await refunds(user)).toEqual([]);

    const later = new Date(t.clock.now().getTime() + 24 * 60 * 60_000);
    await sweepUnsettledCharges(t.ctx.db, later, 0);
    await sweepUnsettledCharges(t.ctx.db, later, 0);
    expect(await balance(user)).toBe(14.5);
    expect(await refunds(user)).toEqual([{ reference: `refund:${answer.message_id}`, amount_tenths: 10 }]);
    expect(await ledgerSum(t.ctx.db, user.userId)).toBe(145);
  });

  it("a scene prompt that cannot be written fails the media and refunds its part once; the words stay", async () => {
    const writer = t.providers.text;
    let asked = 0;
    t.providers.text = {
      name: writer.name,
      purposes: writer.purposes,
      stream: (request) => writer.stream(request),
      async complete(request) {
        if (request.purpose !== "scene") return writer.complete(request);
        asked += 1;
        throw new ProviderError("The illustrator refused this scene.", false);
      },
    };
    try {
      const user = await createUser(t);
      const turn = (
        await t.app.inject({
          method: "POST",
          url: "/api/chat",
          headers: bearer(user.token),
          payload: { prompt: "A ship in a bottle", chat_mode: "image" },
        })
      ).json();
      expect(turn.story_text).toBeTruthy();
      const status = await waitForMedia(t, user.token, `/api/chat/media-status/${turn.message_id}`);
      expect(status.media_generation_failed).toBe(true);
      expect(status.media_generation_error).toBe("The illustrator refused this scene.");
      expect(asked).toBe(1);
      // An image turn (1.5) keeps the words' price (0.5); the picture's part (1.0) comes back once, keyed by the answer.
      expect(await balance(user)).toBe(14.5);
      expect(await refunds(user)).toEqual([{ reference: `refund:${turn.message_id}`, amount_tenths: 10 }]);
      const messages = await get(user, "/api/chat/history");
      expect(JSON.stringify(messages)).toContain(turn.story_text.slice(0, 40));
    } finally {
      t.providers.text = writer;
    }
  }, 120_000);

  it("a turn that completes normally is not refunded", async () => {
    const user = await createUser(t);
    const turn = (
      await t.app.inject({
        method: "POST",
        url: "/api/chat",
        headers: bearer(user.token),
        payload: { prompt: "A quiet lake", chat_mode: "image" },
      })
    ).json();
    const status = await waitForMedia(t, user.token, `/api/chat/media-status/${turn.message_id}`);
    expect(status.media_generation_completed).toBe(true);
    expect(await balance(user)).toBe(13.5);
    expect(await refunds(user)).toEqual([]);
  }, 120_000);
});
