// The card specs' rules that must hold after an import, through the HTTP API on a real database: a card's
// tags, creator, version and creator's notes never reach the narrator; importing (a story, cards into a
// story, a starter) costs nothing; the card's picture is the painter's reference from the first scene; and
// a book's own fields (name, description, scan depth, token budget, recursion, extensions) come back out of
// the lorebook and card exports. The narrator is a fake OpenAI server (its wire format), so the exact
// messages a turn sent can be read back; the painter is the offline one, recorded.
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";
import { multipart } from "../../test/multipart";
import { createOfflineImageProvider } from "../providers/offline/image";
import type { ImageRequest } from "../providers/types";
import { readCardFile } from "./formats/character-card";
import { readCharxFiles } from "./formats/charx";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/interop");
const fixture = (name: string) => readFile(path.join(FIXTURES, name));

let openai: OpenAIFake;
let t: TestApp;
const painted: ImageRequest[] = [];

beforeAll(async () => {
  openai = await startOpenAIFake();
  const painter = createOfflineImageProvider();
  t = await createTestApp({
    env: { TEXT_PROVIDER: "openai", TEXT_API_KEY: openai.apiKey, TEXT_BASE_URL: openai.baseUrl },
    tickingClock: true,
    providers: {
      image: {
        ...painter,
        generate: async (request) => {
          painted.push(request);
          return painter.generate(request);
        },
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
  openai.chat.pieces = ["The lamp swings in the wind.\n\nSCENE: A lighthouse on black rocks at night."];
});

type Method = "GET" | "POST";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const upload = (user: TestUser, url: string, file: Buffer) => {
  const body = multipart(file);
  return t.app.inject({
    method: "POST",
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user.token) },
  });
};

async function importStory(user: TestUser, file: Buffer) {
  const res = await upload(user, "/api/stories/import", file);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().story.id as string;
}

async function newStory(user: TestUser, title = "Calder") {
  const res = await call(user, "POST", "/api/stories", { title });
  expect(res.statusCode).toBe(200);
  return res.json().story.id as string;
}

const narratorRequests = () =>
  openai.requests.filter(isTurnChat).map((r) => JSON.stringify((r.json as { messages: unknown[] }).messages));

describe("what the narrator is never sent", () => {
  it("a turn in a story from v2-every-field.json sends none of the card's tags, creator, version or creator's notes", async () => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v2-every-field.json"));
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      // Wakes both lore entries (lighthouse + storm, harbour), so the whole book is in play.
      prompt: "I climb to the lighthouse in the storm and look down at the harbour",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const sent = narratorRequests();
    expect(sent).toHaveLength(1);
    const messages = sent[0]!;
    // The card itself did reach the narrator: its description, with {{char}} replaced, and its prompt.
    expect(messages).toContain("Mira Voss is a lighthouse keeper on the storm coast of Calder.");
    expect(messages).toContain("Write as Mira Voss in the third person.");
    // tags ["mystery", "coast"]: "coast" is also in the description, "mystery" only in the tags and notes.
    expect(messages).not.toContain("mystery");
    expect(messages).not.toContain("Storyverse fixtures");
    expect(messages).not.toContain("1.2");
    expect(messages).not.toContain("slow-burn");
    expect(messages).not.toContain("HTML stays text");
  });
});

describe("{{char}} in an imported character's own words", () => {
  it("is that character's name, even in a story whose own character is someone else", async () => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v2-every-field.json"));
    const ferryman = {
      name: "Brannoc",
      description: "{{char}} keeps the ferry and owes {{user}} a favour.",
      personality: "",
      scenario: "",
      first_mes: "",
      mes_example: "",
    };
    const imported = await upload(
      user,
      `/api/stories/${storyId}/cards/import`,
      Buffer.from(JSON.stringify(ferryman)),
    );
    expect(imported.statusCode, imported.body).toBe(200);
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I wave to Brannoc at the ferry",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const messages = narratorRequests().at(-1)!;
    expect(messages).toContain("Brannoc keeps the ferry");
    expect(messages).not.toContain("Mira Voss keeps the ferry");
    // The story's own character card still names its character.
    expect(messages).toContain("Mira Voss is a lighthouse keeper on the storm coast of Calder.");
  });
});

describe("a V3 card's nickname", () => {
  it("stands for {{char}} and <BOT>, in the opening and in what the narrator is sent", async () => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v3-card.png"));
    const listed = (await call(user, "GET", `/api/stories/${storyId}/messages`)).json().messages;
    expect(listed[0].content).toMatch(/^\*Mira lowers her lantern\.\*/);
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I ask Mira about the light",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const messages = narratorRequests().at(-1)!;
    expect(messages).toContain("Mira is a lighthouse keeper on the storm coast of Calder.");
    expect(messages).not.toContain("Mira Voss (V3) is a lighthouse keeper");
  });
});

describe("imports are free", () => {
  it("the balance is the same after a story import, a cards import and starting a starter", async () => {
    const user = await createUser(t);
    const balance = async () => {
      const res = await call(user, "GET", "/api/credit-balance");
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const before = await balance();

    await importStory(user, await fixture("v3-card.png"));
    expect(await balance()).toEqual(before);

    const storyId = await newStory(user);
    const cards = await upload(user, `/api/stories/${storyId}/cards/import`, await fixture("worldinfo.json"));
    expect(cards.statusCode, cards.body).toBe(200);
    expect(cards.json().cards.length).toBeGreaterThan(0);
    const preview = await upload(
      user,
      `/api/stories/${storyId}/cards/import?dry_run=true`,
      await fixture("v2-card.png"),
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(await balance()).toEqual(before);

    const starters = (await call(user, "GET", "/api/starters")).json().starters as { id: string }[];
    expect(starters.length).toBeGreaterThan(0);
    const started = await call(user, "POST", `/api/starters/${starters[0]!.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().story.id).toBeTruthy();
    expect(await balance()).toEqual(before);
  });
});

describe("the card's picture in the first scene", () => {
  it("a story from v3-card.png sends the portrait to the painter as a reference in its first painted scene", async () => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v3-card.png"));
    painted.length = 0;
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      // Names no one: the character card is always on, so its face is sent anyway.
      prompt: "I look out over the sea",
      chat_mode: "image",
    });
    expect(res.statusCode, res.body).toBe(200);
    const done = await waitForMedia(
      t,
      user.token,
      `/api/stories/${storyId}/media-status/${res.json().message_id}`,
    );
    expect(done.status).toBe("completed");
    expect(painted).toHaveLength(1);
    const references = painted[0]!.references;
    expect(references).toHaveLength(1);
    // The card's picture is one colour (30, 80, 120); the reference is that picture, not something else.
    const [r, g, b] = (await sharp(references[0]!.data).stats()).channels.map((c) => c.mean);
    for (const [got, want] of [
      [r!, 30],
      [g!, 80],
      [b!, 120],
    ] as const) {
      expect(Math.abs(got - want)).toBeLessThan(4);
    }
  });
});

/**
 * The fixture's character_book, as the card carries it, with the `use_regex: false` a V3 book has on every
 * entry (the V2 fixture has none, and none of its keys is a /pattern/).
 */
async function fixtureBook() {
  const card = JSON.parse((await fixture("v2-every-field.json")).toString());
  const book = card.data.character_book as { entries: Record<string, unknown>[] } & Record<string, unknown>;
  expect(book.entries.every((entry) => !("use_regex" in entry))).toBe(true);
  return { ...book, entries: book.entries.map((entry) => ({ ...entry, use_regex: false })) };
}

describe("a book's own fields round trip", () => {
  it("a card's book exported as a character_book keeps its name, description, scan depth, budget, recursion and extensions", async () => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v2-every-field.json"));
    const res = await call(user, "GET", `/api/stories/${storyId}/cards/export?format=character_book`);
    expect(res.statusCode, res.body).toBe(200);
    const { entries, ...fields } = res.json();
    const { entries: original, ...originalFields } = await fixtureBook();
    expect(originalFields).toMatchObject({ scan_depth: 6, token_budget: 512, recursive_scanning: false });
    expect(fields).toEqual(originalFields);
    // The character's own card comes first; then the book's entries, as they were.
    expect(entries.slice(1)).toEqual(original);
  });

  it.each([
    "json",
    "png",
    "charx",
  ])("the character card exported as %s carries its book back whole, and importing that export gives it again", async (format) => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v2-every-field.json"));
    const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as {
      id: string;
      kind: string;
    }[];
    const character = cards.find((card) => card.kind === "character")!;
    const exportUrl = (story: string, card: string) =>
      `/api/stories/${story}/cards/${card}/export?format=${format}`;
    const res = await call(user, "GET", exportUrl(storyId, character.id));
    expect(res.statusCode, res.body).toBe(200);
    // Every carrier read back through the app's own reader (the format tests check the readers).
    const cardJson = async (bytes: Buffer) => (await readCardFile(bytes)).card;
    const exported = await cardJson(res.rawPayload);
    expect(exported.character_book).toEqual(await fixtureBook());

    // Into another story as cards: the character and its two entries, and its export is the same again.
    const other = await newStory(user, "Elsewhere");
    const again = await upload(user, `/api/stories/${other}/cards/import`, res.rawPayload);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().cards).toHaveLength(3);
    const second = await call(user, "GET", exportUrl(other, again.json().cards[0].id));
    expect((await cardJson(second.rawPayload)).character_book).toEqual(await fixtureBook());
  });

  it("a card's export carries only the cards still there from its own book, and none for a card without one", async () => {
    const user = await createUser(t);
    const storyId = await importStory(user, await fixture("v2-every-field.json"));
    // The same card again in the same story: its own book, not the first import's. Its names are freed with a
    // number when the player keeps both (decision 0142), in the preview as in the import, and the player is
    // told (as a restore tells).
    const preview = await upload(
      user,
      `/api/stories/${storyId}/cards/import?dry_run=true&on_duplicate=keep_both`,
      await fixture("v2-every-field.json"),
    );
    const second = await upload(
      user,
      `/api/stories/${storyId}/cards/import?on_duplicate=keep_both`,
      await fixture("v2-every-field.json"),
    );
    expect(second.statusCode, second.body).toBe(200);
    const renamed = { name: 'card "Weather"', reason: 'renamed "Weather (2)": another card has that name' };
    expect(second.json().skipped).toEqual(expect.arrayContaining([renamed]));
    expect(preview.json().skipped).toEqual(second.json().skipped);
    expect(preview.json().cards.map((c: { name: string }) => c.name)).toEqual(
      second.json().cards.map((c: { name: string }) => c.name),
    );
    const [character, lighthouse, weather] = second.json().cards as { id: string; name: string }[];
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/stories/${storyId}/cards/${lighthouse!.id}`,
      headers: bearer(user.token),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const res = await call(user, "GET", `/api/stories/${storyId}/cards/${character!.id}/export?format=json`);
    const book = res.json().data.character_book;
    const { entries: original, ...fields } = await fixtureBook();
    // The second import's entry (renamed " (2)" beside the first import's), not the first's.
    expect(book).toEqual({ ...fields, entries: [{ ...(original[1] as object), name: "Weather (2)" }] });

    // An entry of the book exported alone is just that entry.
    const entry = await call(user, "GET", `/api/stories/${storyId}/cards/${weather!.id}/export?format=json`);
    expect(entry.json().data.name).toBe("Weather (2)");
    expect(entry.json().data.character_book).toBeUndefined();

    const made = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Gull",
      kind: "thing",
      triggers: ["gull"],
      description: "A grey gull.",
    });
    const plain = await call(
      user,
      "GET",
      `/api/stories/${storyId}/cards/${made.json().card.id}/export?format=json`,
    );
    expect(plain.json().data.character_book).toBeUndefined();
  });

  it("a World Info file's own top-level fields come back in a World Info export", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const worldInfo = JSON.parse((await fixture("worldinfo.json")).toString());
    const withFields = { ...worldInfo, name: "Calder harbour", x_editor: { folder: "coast", pinned: true } };
    const imported = await upload(
      user,
      `/api/stories/${storyId}/cards/import`,
      Buffer.from(JSON.stringify(withFields)),
    );
    expect(imported.statusCode, imported.body).toBe(200);
    const res = await call(user, "GET", `/api/stories/${storyId}/cards/export?format=worldinfo`);
    expect(res.statusCode, res.body).toBe(200);
    const { entries: _entries, ...fields } = res.json();
    expect(fields).toEqual({ name: "Calder harbour", x_editor: { folder: "coast", pinned: true } });
  });
});

describe("a CHARX's other files round trip", () => {
  it("keeps the emotion picture of v3-card.charx: a CHARX export holds it where it was, a PNG or JSON export as a data URL", async () => {
    const user = await createUser(t);
    const original = await fixture("v3-card.charx");
    const happy = (await readCharxFiles(original)).get("assets/emotion/images/happy.webp")!;
    const imported = await upload(user, "/api/stories/import", original);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(JSON.stringify(imported.json().notes)).not.toContain("happy");
    const storyId = imported.json().story.id as string;
    const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards as {
      id: string;
      kind: string;
    }[];
    const character = cards.find((card) => card.kind === "character")!;
    const exported = async (format: string) => {
      const res = await call(
        user,
        "GET",
        `/api/stories/${storyId}/cards/${character.id}/export?format=${format}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.rawPayload;
    };

    const charx = await exported("charx");
    const files = await readCharxFiles(charx);
    expect([...files.keys()].sort()).toEqual([
      "assets/emotion/images/happy.webp",
      "assets/icon/images/main.png",
      "card.json",
    ]);
    expect(files.get("assets/emotion/images/happy.webp")!.equals(happy)).toBe(true);
    const assets = (await readCardFile(charx)).card.assets;
    expect(assets).toEqual([
      { type: "emotion", uri: "embeded://assets/emotion/images/happy.webp", name: "happy", ext: "webp" },
      { type: "background", uri: "https://example.org/backgrounds/coast.png", name: "main", ext: "png" },
      { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
    ]);

    for (const format of ["png", "json"]) {
      const card = (await readCardFile(await exported(format))).card;
      const emotion = card.assets!.find((asset) => asset.type === "emotion")!;
      expect(emotion.uri).toBe(`data:image/webp;base64,${happy.toString("base64")}`);
      expect(card.assets!.some((asset) => asset.uri.startsWith("embeded://"))).toBe(false);
    }
  });
});
