// The loaded part of a paged conversation (decision 0130): reading the newest page again keeps the older pages
// already loaded when they join it; a jump to a checkpoint shows the page around it, reads on towards the
// newest, and the next read of the newest page goes back to the story's end; a page that arrives for a
// conversation that has moved on is dropped.
import type { ChatMessage, MessagePage } from "@storyverse/contract/chat";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { makeMessage } from "../../test/story-fixtures";
import {
  type PagePosition,
  pagesKey,
  readNewerPage,
  readNewestPage,
  readOlderPage,
  readPageAround,
  windowOf,
} from "./message-pages";

const KEY = ["stories", "s1", "messages"] as const;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const message = (n: number): ChatMessage =>
  makeMessage({
    id: id(n),
    role: n % 2 === 0 ? "user" : "assistant",
    content: `Message ${n}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  });
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
const page = (messages: ChatMessage[], fields: Partial<MessagePage> = {}): MessagePage => ({
  success: true,
  messages,
  has_more: false,
  next_cursor: null,
  has_newer: false,
  newer_cursor: null,
  turns_before: 0,
  ...fields,
});
const shown = (client: QueryClient) => client.getQueryData<ChatMessage[]>(KEY)?.map((m) => m.content) ?? [];
const contents = (from: number, to: number) => range(from, to).map((m) => m.content);

/** A server of pages by position, recording what was asked. */
function server(pages: Record<string, MessagePage>) {
  const asked: string[] = [];
  const read = async (position: PagePosition) => {
    const key = new URLSearchParams(position as Record<string, string>).toString();
    asked.push(key);
    const answer = pages[key];
    if (!answer) throw new Error(`no page ${key}`);
    return answer;
  };
  return { read, asked };
}

describe("a paged conversation", () => {
  it("reads older pages above, and keeps them when the newest page is read again after a turn", async () => {
    const client = new QueryClient();
    const { read, asked } = server({
      "": page(range(11, 20), { has_more: true, next_cursor: "c10", turns_before: 5 }),
      "before=c10": page(range(1, 10), { turns_before: 0 }),
    });
    client.setQueryData(KEY, await readNewestPage(client, KEY, read));
    expect(shown(client)).toEqual(contents(11, 20));
    expect(windowOf(client, KEY)).toEqual({ older: "c10", newer: null, turnsBefore: 5 });

    expect(await readOlderPage(client, KEY, read)).toBe(true);
    expect(shown(client)).toEqual(contents(1, 20));
    expect(windowOf(client, KEY)).toEqual({ older: null, newer: null, turnsBefore: 0 });
    // Nothing older is left: no request.
    expect(await readOlderPage(client, KEY, read)).toBe(false);
    expect(asked).toEqual(["", "before=c10"]);

    // A turn later the newest page has moved on by two messages; the older ones loaded stay above it.
    const { read: after } = server({ "": page(range(13, 22), { has_more: true, next_cursor: "c12" }) });
    client.setQueryData(KEY, await readNewestPage(client, KEY, after));
    expect(shown(client)).toEqual(contents(1, 22));
    expect(windowOf(client, KEY)).toEqual({ older: null, newer: null, turnsBefore: 0 });
  });

  it("shows the newest page alone when it does not join what was loaded (more was written elsewhere)", async () => {
    const client = new QueryClient();
    client.setQueryData(KEY, range(1, 10));
    client.setQueryData(pagesKey(KEY), { older: null, newer: null, turnsBefore: 0 });
    const { read } = server({
      "": page(range(31, 40), { has_more: true, next_cursor: "c30", turns_before: 15 }),
    });
    client.setQueryData(KEY, await readNewestPage(client, KEY, read));
    expect(shown(client)).toEqual(contents(31, 40));
    expect(windowOf(client, KEY)).toEqual({ older: "c30", newer: null, turnsBefore: 15 });
  });

  it("jumps to the page around a checkpoint, reads on to the newest, and a turn goes back to the end", async () => {
    const client = new QueryClient();
    client.setQueryData(KEY, range(91, 100));
    client.setQueryData(pagesKey(KEY), { older: "c90", newer: null, turnsBefore: 45 });
    const { read, asked } = server({
      [`around=${id(20)}`]: page(range(16, 25), {
        has_more: true,
        next_cursor: "c15",
        has_newer: true,
        newer_cursor: "n25",
        turns_before: 8,
      }),
      "after=n25": page(range(26, 35), {
        has_more: true,
        next_cursor: "c25",
        has_newer: true,
        newer_cursor: "n35",
      }),
      "": page(range(91, 100), { has_more: true, next_cursor: "c90", turns_before: 45 }),
    });
    await readPageAround(client, KEY, read, id(20));
    expect(shown(client)).toEqual(contents(16, 25));
    expect(windowOf(client, KEY)).toEqual({ older: "c15", newer: "n25", turnsBefore: 8 });

    expect(await readNewerPage(client, KEY, read)).toBe(true);
    expect(shown(client)).toEqual(contents(16, 35));
    expect(windowOf(client, KEY)).toEqual({ older: "c15", newer: "n35", turnsBefore: 8 });

    // Reading the conversation again (a turn is sent from here) shows the story's end, not a gap.
    client.setQueryData(KEY, await readNewestPage(client, KEY, read));
    expect(shown(client)).toEqual(contents(91, 100));
    expect(windowOf(client, KEY)).toEqual({ older: "c90", newer: null, turnsBefore: 45 });
    expect(asked).toEqual([`around=${id(20)}`, "after=n25", ""]);
  });

  it("drops an older page that arrives after the conversation moved on (another branch shown meanwhile)", async () => {
    const client = new QueryClient();
    client.setQueryData(KEY, range(11, 20));
    client.setQueryData(pagesKey(KEY), { older: "c10", newer: null, turnsBefore: 5 });
    let release: () => void = () => {};
    const read = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return page(range(1, 10));
    };
    const loading = readOlderPage(client, KEY, read);
    // Meanwhile the conversation is another one (a branch switch wrote its newest page).
    client.setQueryData(KEY, range(51, 60));
    client.setQueryData(pagesKey(KEY), { older: "c50", newer: null, turnsBefore: 25 });
    release();
    await loading;
    expect(shown(client)).toEqual(contents(51, 60));
    expect(windowOf(client, KEY)).toEqual({ older: "c50", newer: null, turnsBefore: 25 });
  });
});
