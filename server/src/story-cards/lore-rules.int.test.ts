// The lore rules through the HTTP API on a real database: a story's lore settings (and their bad input), the
// cards' lore fields (secondary triggers, selective logic, constant, order, priority, case, /regex/ triggers),
// "What the narrator sees" saying why each card fired and which did not fit the lore budget, imported cards
// in bulk, and a real turn sending the story's own narrator instructions with `{{original}}` and the macros
// in place, the post-history instructions just before the player's message, and never the creator's notes.
// The narrator is a fake OpenAI server, so the exact messages a turn sent can be read back.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { samplePng } from "../../test/fakes/media";
import { isTurnChat, type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { stories as storiesTable } from "../db/schema";
import { createImportedCards, type ImportedCardInput } from "./cards";

let openai: OpenAIFake;
let t: TestApp;

beforeAll(async () => {
  openai = await startOpenAIFake();
  t = await createTestApp({
    env: { TEXT_PROVIDER: "openai", TEXT_API_KEY: openai.apiKey, TEXT_BASE_URL: openai.baseUrl },
    tickingClock: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.cleanup(), openai?.close()]);
});
beforeEach(() => {
  openai.reset();
  openai.chat.pieces = ["The gulls circle the harbour.\n\nSCENE: A grey harbour at dawn, boats and gulls."];
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (user: TestUser, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function newStory(user: TestUser, title = "The Drowned Bell") {
  const res = await call(user, "POST", "/api/stories", { title, context: "A harbour town." });
  expect(res.statusCode).toBe(200);
  return res.json().story.id as string;
}

/**
 * What an import would set: the character's name and the creator's notes (not writable through the API).
 * Written from outside the app's modules, as an operator's psql would: the app hears of it by the tables'
 * change signal, which on PostgreSQL arrives a moment later, so this waits until the story shows it.
 */
async function setImportedFields(
  user: TestUser,
  storyId: string,
  fields: { characterName: string; creatorNotes: string },
) {
  await t.database.db.update(storiesTable).set(fields).where(eq(storiesTable.id, storyId));
  await expect
    .poll(
      async () => (await call(user, "GET", `/api/stories/${storyId}/lore-settings`)).json().character_name,
    )
    .toBe(fields.characterName);
}

const lastNarratorMessages = () => {
  const request = openai.requests.filter(isTurnChat).at(-1);
  return (request?.json as { messages: { role: string; content: string }[] }).messages;
};

const DEFAULTS = {
  success: true,
  lore_budget_percent: 50,
  lore_scan_depth: 4,
  narrator_instructions: "",
  post_history_instructions: "",
  creator_notes: "",
  character_name: "",
};

describe("a story's lore settings", () => {
  it("reads the defaults, changes the fields sent and keeps the others", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const url = `/api/stories/${storyId}/lore-settings`;
    expect((await call(user, "GET", url)).json()).toEqual(DEFAULTS);

    const changed = await call(user, "PUT", url, {
      lore_budget_percent: 30,
      narrator_instructions: "  Be terse.\n{{original}}  ",
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({
      ...DEFAULTS,
      lore_budget_percent: 30,
      narrator_instructions: "Be terse.\n{{original}}",
    });
    await call(user, "PUT", url, { lore_scan_depth: 0, post_history_instructions: "Stay in character." });
    await setImportedFields(user, storyId, {
      characterName: "Mara",
      creatorNotes: "Made for rainy evenings.",
    });
    expect((await call(user, "GET", url)).json()).toEqual({
      ...DEFAULTS,
      lore_budget_percent: 30,
      lore_scan_depth: 0,
      narrator_instructions: "Be terse.\n{{original}}",
      post_history_instructions: "Stay in character.",
      creator_notes: "Made for rainy evenings.",
      character_name: "Mara",
    });
  });

  it("refuses bad values with a 400 naming the field, changing nothing", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const url = `/api/stories/${storyId}/lore-settings`;
    await call(user, "PUT", url, { lore_budget_percent: 40 });
    const bad: [unknown, string][] = [
      [{ lore_budget_percent: 4 }, "lore_budget_percent must be a whole number from 5 to 90"],
      [{ lore_budget_percent: 91 }, "lore_budget_percent must be a whole number from 5 to 90"],
      [{ lore_budget_percent: 50.5 }, "lore_budget_percent must be a whole number from 5 to 90"],
      [{ lore_budget_percent: "50" }, "lore_budget_percent must be a whole number from 5 to 90"],
      [{ lore_scan_depth: -1 }, "lore_scan_depth must be a whole number from 0 to 20"],
      [{ lore_scan_depth: 21 }, "lore_scan_depth must be a whole number from 0 to 20"],
      [
        { narrator_instructions: "x".repeat(32_001) },
        "narrator_instructions must be at most 32000 characters",
      ],
      [
        { post_history_instructions: "x".repeat(32_001) },
        "post_history_instructions must be at most 32000 characters",
      ],
      [{ narrator_instructions: 7 }, "narrator_instructions must be text"],
      [{}, "Nothing to update"],
      // The creator's notes and the character's name are an import's, not the API's to change.
      [{ creator_notes: "mine now" }, "Nothing to update"],
      // One good field with a bad one: nothing at all changes.
      [{ lore_scan_depth: 2, lore_budget_percent: 95 }, "lore_budget_percent must be"],
    ];
    for (const [payload, detail] of bad) {
      const res = await call(user, "PUT", url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe("invalid_request");
      expect(res.json().detail).toContain(detail);
    }
    expect((await call(user, "GET", url)).json()).toEqual({ ...DEFAULTS, lore_budget_percent: 40 });
  });

  it("answers 404 for another player's story, and changes nothing of it", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const storyId = await newStory(owner);
    const url = `/api/stories/${storyId}/lore-settings`;
    expect((await call(other, "GET", url)).statusCode).toBe(404);
    const res = await call(other, "PUT", url, { lore_budget_percent: 10 });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe("Story not found");
    expect((await call(owner, "GET", url)).json()).toEqual(DEFAULTS);
  });
});

describe("the cards' lore fields", () => {
  it("creates, reads and changes a card's lore rules; plain cards get the defaults", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const created = await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Storm ship",
      kind: "thing",
      triggers: ["ship", "/wreck(age)?/i"],
      description: "A ship that only sails in storms.",
      secondary_triggers: ["storm", "gale"],
      selective_logic: "and_all",
      insertion_order: 5,
      priority: 80,
      case_sensitive: true,
    });
    expect(created.statusCode).toBe(200);
    const card = created.json().card;
    expect(card).toMatchObject({
      triggers: ["ship", "/wreck(age)?/i"],
      secondary_triggers: ["storm", "gale"],
      selective_logic: "and_all",
      constant: false,
      insertion_order: 5,
      priority: 80,
      case_sensitive: true,
      from_character_card: false,
      creator_notes: "",
    });
    const plain = (
      await call(user, "POST", `/api/stories/${storyId}/cards`, { name: "Mara", triggers: ["Mara"] })
    ).json().card;
    expect(plain).toMatchObject({
      secondary_triggers: [],
      selective_logic: "and_any",
      constant: false,
      insertion_order: 100,
      priority: 10,
      case_sensitive: false,
    });

    const changed = await call(user, "PUT", `/api/stories/${storyId}/cards/${card.id}`, {
      selective_logic: "not_any",
      priority: 0,
      constant: true,
      triggers: [],
    });
    expect(changed.statusCode).toBe(200);
    const listed = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
    expect(listed[0]).toMatchObject({
      name: "Storm ship",
      triggers: [],
      secondary_triggers: ["storm", "gale"],
      selective_logic: "not_any",
      constant: true,
      insertion_order: 5,
      priority: 0,
      case_sensitive: true,
    });
  });

  it("refuses a bad pattern, a bad flag, bad rules and a card with no trigger that is not always on", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const url = `/api/stories/${storyId}/cards`;
    const bad: [object, string][] = [
      [{ triggers: ["/wreck(/i"] }, 'triggers: "/wreck(/i" is not a valid regular expression'],
      [{ triggers: ["/wreck/g"] }, 'triggers: "/wreck/g" has flags that cannot be used'],
      [{ triggers: ["/(a+)+$/"] }, "can take too long to match"],
      [
        { triggers: ["ship"], secondary_triggers: ["/[/"] },
        'triggers: "/[/" is not a valid regular expression',
      ],
      [{ triggers: [] }, "triggers: give at least one trigger word"],
      [
        { triggers: ["ship"], selective_logic: "maybe" },
        "selective_logic must be and_any, and_all, not_any or not_all",
      ],
      [
        { triggers: ["ship"], insertion_order: 1001 },
        "insertion_order must be a whole number from 0 to 1000",
      ],
      [{ triggers: ["ship"], priority: -1 }, "priority must be a whole number from 0 to 1000"],
      [{ triggers: ["ship"], constant: "yes" }, "constant must be true or false"],
    ];
    for (const [fields, detail] of bad) {
      const res = await call(user, "POST", url, { name: "Ship", ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().detail).toContain(detail);
    }
    // An always-on card needs no trigger.
    const constant = await call(user, "POST", url, { name: "World", triggers: [], constant: true });
    expect(constant.statusCode).toBe(200);
    const id = constant.json().card.id;
    // Turning it off while it has no trigger, or emptying another card's triggers: refused, nothing changed.
    const off = await call(user, "PUT", `${url}/${id}`, { constant: false });
    expect(off.statusCode).toBe(400);
    expect(off.json().detail).toBe("triggers: give at least one trigger word");
    const mara = (await call(user, "POST", url, { name: "Mara", triggers: ["Mara"] })).json().card;
    const emptied = await call(user, "PUT", `${url}/${mara.id}`, { triggers: [] });
    expect(emptied.statusCode).toBe(400);
    const badRegex = await call(user, "PUT", `${url}/${mara.id}`, { triggers: ["/(/"] });
    expect(badRegex.statusCode).toBe(400);
    const cards = (await call(user, "GET", url)).json().cards;
    expect(
      cards.map((c: { name: string; triggers: string[]; constant: boolean }) => [
        c.name,
        c.triggers,
        c.constant,
      ]),
    ).toEqual([
      ["World", [], true],
      ["Mara", ["Mara"], false],
    ]);
  });
});

describe("imported cards in bulk (the importer's entry point)", () => {
  const imported = (name: string, extra: Partial<ImportedCardInput> = {}): ImportedCardInput => ({
    name,
    kind: "other",
    triggers: [name],
    description: `About ${name}.`,
    enabled: true,
    secondaryTriggers: [],
    selectiveLogic: "and_any",
    constant: false,
    insertionOrder: 100,
    priority: 10,
    caseSensitive: false,
    extensions: {},
    ...extra,
  });

  it("adds many cards at once: duplicate names get a number, a card's picture becomes its portrait", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await call(user, "POST", `/api/stories/${storyId}/cards`, { name: "Mara", triggers: ["Mara"] });
    const made = await createImportedCards(t.ctx, user.userId, storyId, [
      imported("Mara", {
        kind: "character",
        constant: true,
        characterCard: { name: "Mara", creator_notes: "Best with a slow pace." },
        extensions: { depth: 4 },
        portrait: { data: await samplePng(32, 32, "#2050d0") },
      }),
      imported("mara"),
      imported("Harbour", { secondaryTriggers: ["fog"], selectiveLogic: "not_all", priority: 70 }),
    ]);
    expect(made.portraitKeys).toHaveLength(1);
    const cards = (await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards;
    expect(cards.map((c: { name: string }) => c.name)).toEqual(["Mara", "Mara (2)", "mara (3)", "Harbour"]);
    expect(cards[1]).toMatchObject({
      kind: "character",
      constant: true,
      from_character_card: true,
      creator_notes: "Best with a slow pace.",
    });
    expect(cards[1].portrait.url).toBeTruthy();
    expect(cards[3]).toMatchObject({ secondary_triggers: ["fog"], selective_logic: "not_all", priority: 70 });
  });

  it("adds none when they would take the story past 100 cards, or one has a bad pattern", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const many = Array.from({ length: 99 }, (_, i) => imported(`Card ${i}`));
    await createImportedCards(t.ctx, user.userId, storyId, many);
    await expect(
      createImportedCards(t.ctx, user.userId, storyId, [imported("One"), imported("Two")]),
    ).rejects.toMatchObject({ code: "invalid_request", detail: "A story can have at most 100 cards." });
    await expect(
      createImportedCards(t.ctx, user.userId, storyId, [imported("Bad", { triggers: ["/(/"] })]),
    ).rejects.toMatchObject({
      code: "invalid_request",
      detail: 'card "Bad": triggers: "/(/" is not a valid regular expression',
    });
    expect((await call(user, "GET", `/api/stories/${storyId}/cards`)).json().cards).toHaveLength(99);
  });
});

describe("what the narrator sees: why each card fired", () => {
  it("says why: always on, a key in your message or some messages back, with its secondary keys", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const cardsUrl = `/api/stories/${storyId}/cards`;
    await call(user, "POST", cardsUrl, {
      name: "World",
      triggers: [],
      constant: true,
      description: "Rain, always.",
    });
    await call(user, "POST", cardsUrl, {
      name: "Storm ship",
      triggers: ["ship"],
      secondary_triggers: ["storm"],
      selective_logic: "and_any",
    });
    await call(user, "POST", cardsUrl, { name: "Mara", triggers: ["Mara"] });
    // One turn: the player's words (2 messages back) name Mara and the ship.
    openai.chat.pieces = ["The ship creaks.\n\nSCENE: A ship at night."];
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "Mara points at the ship",
      chat_mode: "chat",
    });
    expect(turn.statusCode).toBe(200);

    const preview = async (prompt: string) =>
      (
        await call(user, "GET", `/api/stories/${storyId}/context?prompt=${encodeURIComponent(prompt)}`)
      ).json();
    const seen = await preview("A storm rolls in");
    expect(
      seen.active_cards.map((c: { name: string; because: string; dropped_for_budget: boolean }) => [
        c.name,
        c.because,
        c.dropped_for_budget,
      ]),
    ).toEqual([
      ["World", "always on", false],
      ["Storm ship", '"ship" in 1 message back, and "storm"', false],
      ["Mara", '"Mara" in 2 messages back', false],
    ]);
    expect(seen.active_cards[1].reason).toEqual({
      kind: "key",
      key: "ship",
      where: "1 message back",
      messages_back: 1,
      secondary: ["storm"],
    });
    // Without the secondary key, the ship's card stays asleep.
    expect((await preview("I wait")).active_cards.map((c: { name: string }) => c.name)).toEqual([
      "World",
      "Mara",
    ]);

    // Scan depth 0: only the player's message is searched, as a turn would.
    await call(user, "PUT", `/api/stories/${storyId}/lore-settings`, { lore_scan_depth: 0 });
    expect((await preview("A storm rolls in")).active_cards.map((c: { name: string }) => c.name)).toEqual([
      "World",
    ]);
    expect((await preview("Mara?")).active_cards[1].because).toBe('"Mara" in your message');
  });

  it("keeps the higher priority within the story's lore budget and marks the rest dropped_for_budget", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    const long = (seed: string) =>
      Array.from({ length: 200 }, (_, i) => `${seed}${i}`)
        .join(" ")
        .slice(0, 1000);
    const make = (name: string, priority: number) =>
      call(user, "POST", `/api/stories/${storyId}/cards`, {
        name,
        triggers: ["harbour"],
        description: long(name.slice(0, 2)),
        priority,
      });
    await make("Low", 1);
    await make("High", 90);
    await make("Middle", 50);
    const roomy = (await call(user, "GET", `/api/stories/${storyId}/context?prompt=the%20harbour`)).json();
    expect(roomy.active_cards.every((c: { in_context: boolean }) => c.in_context)).toBe(true);

    await call(user, "PUT", `/api/stories/${storyId}/lore-settings`, { lore_budget_percent: 10 });
    const tight = (await call(user, "GET", `/api/stories/${storyId}/context?prompt=the%20harbour`)).json();
    const byName = Object.fromEntries(
      tight.active_cards.map((c: { name: string; in_context: boolean; dropped_for_budget: boolean }) => [
        c.name,
        c,
      ]),
    );
    expect(byName.High).toMatchObject({ in_context: true, dropped_for_budget: false });
    expect(byName.Low).toMatchObject({ in_context: false, dropped_for_budget: true });
    const cardTokens = tight.parts.find((p: { part: string }) => p.part === "cards").tokens;
    expect(cardTokens).toBeLessThanOrEqual(Math.floor(tight.budget_tokens * 0.1));
    expect(tight.messages[0].content).not.toContain("Lo0 Lo1");
  });
});

describe("a turn with the story's own narrator instructions", () => {
  it("sends them with {{original}} and the names in place, the post-history instructions last, never the creator's notes", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await setImportedFields(user, storyId, {
      characterName: "Mara",
      creatorNotes: "CREATOR-ONLY: best read aloud.",
    });
    await call(user, "PUT", `/api/stories/${storyId}/lore-settings`, {
      narrator_instructions: "You speak as {{char}} to <USER>.\n{{original}}",
      post_history_instructions: "{{original}}Remember {{user}} is listening, {{char}}.",
    });
    await call(user, "PUT", `/api/stories/${storyId}/memory`, {
      memory: "{{char}} owes {{user}} a favour.",
      authors_note: "Slow and rainy.",
    });
    await call(user, "POST", `/api/stories/${storyId}/cards`, {
      name: "Lighthouse",
      kind: "place",
      triggers: [],
      constant: true,
      description: "Where <BOT> was born.",
    });

    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I knock on the door",
      chat_mode: "chat",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().story_text).toBe("The gulls circle the harbour.");
    const messages = lastNarratorMessages();
    const system = messages[0]!.content;
    expect(
      system.startsWith(
        `You speak as Mara to ${user.username}.\nYou are the narrator of an interactive story.`,
      ),
    ).toBe(true);
    expect(system).toContain("Answer with one to three short paragraphs of story and nothing else.");
    expect(system).toContain(`Mara owes ${user.username} a favour.`);
    expect(system).toContain("- Lighthouse (place): Where Mara was born.");
    expect(messages.at(-3)!.content).toContain("Slow and rainy.");
    expect(messages.at(-2)).toEqual({
      role: "system",
      content: `Remember ${user.username} is listening, Mara.`,
    });
    expect(messages.at(-1)).toEqual({ role: "user", content: "I knock on the door" });
    const everything = JSON.stringify(messages);
    expect(everything).not.toContain("CREATOR-ONLY");
    expect(everything).not.toMatch(/\{\{(char|user|original)\}\}|<BOT>|<USER>/i);

    // "What the narrator sees" shows the same, and prices the post-history instructions.
    const preview = (await call(user, "GET", `/api/stories/${storyId}/context?prompt=I%20knock`)).json();
    expect(preview.messages[0].content).toBe(system);
    expect(
      preview.parts.find((p: { part: string }) => p.part === "post_history_instructions").tokens,
    ).toBeGreaterThan(0);
    expect(JSON.stringify(preview)).not.toContain("CREATOR-ONLY");
  });

  it("keeps the answer's format when the instructions leave out {{original}}, and a SCENE line stays out of the story", async () => {
    const user = await createUser(t);
    const storyId = await newStory(user);
    await call(user, "PUT", `/api/stories/${storyId}/lore-settings`, {
      narrator_instructions: "Answer only in haiku.",
    });
    const res = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I wait",
      chat_mode: "chat",
    });
    expect(res.statusCode).toBe(200);
    const system = lastNarratorMessages()[0]!.content;
    expect(system.startsWith("Answer only in haiku.")).toBe(true);
    expect(system).not.toContain("You are the narrator of an interactive story.");
    expect(system).toContain("Story title: The Drowned Bell");
    expect(system).toContain("Answer with one to three short paragraphs of story and nothing else.");
    // The SCENE line stayed out of the story text.
    expect(res.json().story_text).toBe("The gulls circle the harbour.");
  });
});
