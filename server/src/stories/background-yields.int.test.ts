// Another story's background work never holds the database while a request waits (issue 42 item 3, decision
// 0134): on PGlite the database is one connection, so a job that kept a transaction open across its slow part
// (the text vendor's answer) would stop every request of the process until it ended. Here a never-summarised
// story of 2,000 exchanges is folded step by step while one summariser request is held open by the test; the
// player's requests on another story (the list, a card, its messages and a whole turn, which writes) are all
// answered while that step waits, and the job then carries on: the log shows them interleaved. Ordering, not
// time, is asserted; H6's bench measures how long a request waits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import type { JobSpec } from "../jobs/queue";
import type { TextProvider } from "../providers/types";
import { storySummaryJob, writeStorySummary } from "./summary";

let t: TestApp;
beforeAll(async () => {
  // No workers: the test runs the summary's steps itself, one after another, as the queue would.
  t = await createTestApp({ tickingClock: true, workers: false });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

const call = (user: TestUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

describe("a long story's background work and another story's requests", () => {
  it("answers the list, a card, messages and a turn of story B while story A's summary step waits on its vendor", async () => {
    const user = await createUser(t);
    const created = await call(user, "POST", "/api/stories", { title: "The Long Road", context: "North" });
    const longId = created.json().story.id as string;
    await writeExchanges(t, user, longId, 2_000, {});
    const other = await call(user, "POST", "/api/stories", { title: "A Short Walk", context: "South" });
    const otherId = other.json().story.id as string;

    const log: string[] = [];
    // The summariser's second request is held until the test lets it go.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held!: () => void;
    const waiting = new Promise<void>((resolve) => {
      held = resolve;
    });
    const narrator = t.providers.text;
    let asked = 0;
    t.providers.text = {
      ...narrator,
      purposes: narrator.purposes,
      async complete(request) {
        if (request.purpose !== "summary") return narrator.complete(request);
        asked += 1;
        log.push(`summary step ${asked} asks its vendor`);
        if (asked === 2) {
          held();
          await gate;
        }
        return narrator.complete(request);
      },
    } satisfies TextProvider;

    // The job's steps, as the worker runs them: each queues the next while history is uncovered.
    const steps = (async () => {
      for (let step = 1; step <= 4; step += 1) {
        let queued = false;
        const jobs = {
          ...t.ctx.jobs,
          send: async <P>(spec: JobSpec<P>) => {
            if (spec.name === storySummaryJob.name) queued = true;
            return "recorded";
          },
        };
        await writeStorySummary({ ...t.ctx, jobs }, { userId: user.userId, storyId: longId });
        log.push(`summary step ${step} written`);
        if (!queued) return;
      }
    })();

    try {
      await waiting;
      // Story A's step 2 has read its batch and waits on its vendor: story B's requests are answered now.
      const list = await call(user, "GET", "/api/stories?limit=10");
      expect(list.statusCode, list.body).toBe(200);
      const card = await call(user, "GET", `/api/stories/${otherId}`);
      expect(card.statusCode, card.body).toBe(200);
      const turn = await call(user, "POST", `/api/stories/${otherId}/chat`, {
        prompt: "I walk south",
        chat_mode: "chat",
      });
      expect(turn.statusCode, turn.body).toBe(200);
      const messages = await call(user, "GET", `/api/stories/${otherId}/messages`);
      expect(messages.statusCode, messages.body).toBe(200);
      log.push("story B answered: list, card, turn, messages");
    } finally {
      release();
    }
    try {
      await steps;
    } finally {
      t.providers.text = narrator;
    }

    expect(log).toEqual([
      "summary step 1 asks its vendor",
      "summary step 1 written",
      "summary step 2 asks its vendor",
      "story B answered: list, card, turn, messages",
      "summary step 2 written",
      "summary step 3 asks its vendor",
      "summary step 3 written",
      "summary step 4 asks its vendor",
      "summary step 4 written",
    ]);
    // The step that waited wrote its summary after B's turn: nothing of it was lost.
    const memory = (await call(user, "GET", `/api/stories/${longId}/memory`)).json() as {
      summary_covers_messages: number;
    };
    expect(memory.summary_covers_messages).toBeGreaterThan(0);
  });
});
