// Which Story Cards a turn wakes: whole words, any case, any script; the prompt and the newest four
// messages only; disabled cards never; the most recently mentioned first. The lore rules: constant cards,
// case-sensitive cards, /regex/ triggers, secondary triggers with SillyTavern's selective logic, the scan
// depth, and why each card fired.

import vm from "node:vm";
import { regexTriggerProblem } from "@storyverse/contract/story-cards";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ActivationCard,
  activateCards,
  activeCards,
  describeReason,
  triggerTexts,
} from "./card-activation";

const card = (name: string, triggers: string[], enabled = true) => ({ name, triggers, enabled });
const names = (cards: { name: string }[]) => cards.map((c) => c.name);

describe("activeCards", () => {
  it("matches whole words without regard to case", () => {
    const cards = [card("Ash", ["Ash"]), card("Mara", ["mara"]), card("Bell", ["the drowned bell"])];
    expect(names(activeCards(cards, ["We reach Ashford at dawn."]))).toEqual([]);
    expect(names(activeCards(cards, ["The ash falls. MARA coughs."]))).toEqual(["Mara", "Ash"]);
    expect(names(activeCards(cards, ["I ring The  Drowned\nBell!"]))).toEqual(["Bell"]);
    expect(names(activeCards(cards, ["Mara's map", "mara-like", "maranatha"]))).toEqual(["Mara"]);
    expect(names(activeCards(cards, ["ash1", "_mara_"]))).toEqual(["Mara"]);
  });

  it("is Unicode-aware: letters of any script bound a word, case folds beyond ASCII", () => {
    const cards = [
      card("Élodie", ["Élodie"]),
      card("Мара", ["Мара"]),
      card("Straße", ["straße"]),
      card("Cat", ["猫"]),
      card("Zoë", ["zoë"]),
    ];
    expect(names(activeCards(cards, ["ÉLODIE smiles."]))).toEqual(["Élodie"]);
    expect(names(activeCards(cards, ["élodiette waves."]))).toEqual([]);
    expect(names(activeCards(cards, ["Пришла МАРА, а не Марат."]))).toEqual(["Мара"]);
    expect(names(activeCards(cards, ["Die STRASSE", "die Straßenbahn"]))).toEqual([]);
    expect(names(activeCards(cards, ["Die Straße ist leer."]))).toEqual(["Straße"]);
    expect(names(activeCards(cards, ["看, 猫。", "猫咪"]))).toEqual(["Cat"]);
    expect(names(activeCards(cards, ["一只猫咪"]))).toEqual([]);
    // The same letter written decomposed (e + combining diaeresis) is the same word.
    expect(names(activeCards(cards, ["Zoe\u0308 runs."]))).toEqual(["Zoë"]);
    expect(names(activeCards(cards, ["Zoë\u0301"]))).toEqual([]);
  });

  it("never wakes a disabled card", () => {
    expect(activeCards([card("Mara", ["Mara"], false)], ["Mara is here"])).toEqual([]);
  });

  it("reads the prompt and the newest four messages only", () => {
    const history = ["Mara one", "two", "three", "four", "five"].map((content) => ({ content }));
    const texts = triggerTexts("six", history);
    expect(texts).toEqual(["six", "five", "four", "three", "two"]);
    expect(activeCards([card("Mara", ["Mara"])], texts)).toEqual([]);
    expect(names(activeCards([card("Mara", ["Mara"])], triggerTexts("Mara?", history)))).toEqual(["Mara"]);
  });

  it("puts the most recently mentioned card first", () => {
    const cards = [card("Mara", ["Mara"]), card("Vell", ["Vell"]), card("Bell", ["bell"])];
    // Newest text first: the prompt names the bell, then Mara, an older message Vell.
    expect(names(activeCards(cards, ["Mara rings the bell", "In Vell"]))).toEqual(["Bell", "Mara", "Vell"]);
    expect(names(activeCards(cards, ["nothing", "Vell, then Mara"]))).toEqual(["Mara", "Vell"]);
  });
});

type Lore = ActivationCard & { name: string };
const lore = (name: string, triggers: string[], rules: Partial<ActivationCard> = {}): Lore => ({
  name,
  triggers,
  ...rules,
});
const fired = (cards: Lore[], texts: string[]) =>
  activateCards(cards, texts).map((entry) => ({
    name: entry.card.name,
    because: describeReason(entry.reason),
  }));

describe("activateCards: the lore rules", () => {
  it("wakes a constant card always, first (mentioned now), even with no trigger; never when disabled", () => {
    const cards = [
      lore("Mara", ["Mara"]),
      lore("World", [], { constant: true }),
      lore("Off", [], { constant: true, enabled: false }),
    ];
    expect(fired(cards, ["Mara waves", "nothing"])).toEqual([
      { name: "World", because: "always on" },
      { name: "Mara", because: '"Mara" in your message' },
    ]);
    expect(fired(cards, ["the empty road"])).toEqual([{ name: "World", because: "always on" }]);
  });

  it("matches a case-sensitive card only in the case written", () => {
    const cards = [lore("Rose", ["Rose"], { caseSensitive: true }), lore("rose", ["rose"])];
    expect(names(activeCards(cards, ["a rose in bloom"]))).toEqual(["rose"]);
    expect(names(activeCards(cards, ["ROSE shouts"]))).toEqual(["rose"]);
    expect(names(activeCards(cards, ["Rose shouts"]))).toEqual(["Rose", "rose"]);
  });

  it("reads a /pattern/flags trigger as a regular expression with its own flags", () => {
    const cards = [lore("Ship", ["/\\bship(s|wreck)?\\b/i"]), lore("Code", ["/[A-Z]{3}-\\d{2}/"])];
    expect(fired(cards, ["The SHIPWRECK lies still"])).toEqual([
      { name: "Ship", because: '"/\\bship(s|wreck)?\\b/i" in your message' },
    ]);
    expect(names(activeCards(cards, ["door code ABC-12"]))).toEqual(["Code"]);
    // Without the i flag the pattern keeps its case.
    expect(names(activeCards(cards, ["door code abc-12"]))).toEqual([]);
    // A plain trigger that only looks like a pattern's text is still a whole word.
    expect(names(activeCards([lore("Dot", ["a.b"])], ["axb"]))).toEqual([]);
  });

  it("AND ANY: a trigger and at least one secondary key, anywhere in the scanned texts", () => {
    const card = lore("Storm ship", ["ship"], {
      secondaryTriggers: ["storm", "gale"],
      selectiveLogic: "and_any",
    });
    expect(fired([card], ["the ship sails"])).toEqual([]);
    expect(fired([card], ["we look out", "the ship sails", "a gale rises"])).toEqual([
      { name: "Storm ship", because: '"ship" in 1 message back, and "gale"' },
    ]);
  });

  it("AND ALL: a trigger and every secondary key", () => {
    const card = lore("Storm ship", ["ship"], {
      secondaryTriggers: ["storm", "gale"],
      selectiveLogic: "and_all",
    });
    expect(fired([card], ["ship in a storm"])).toEqual([]);
    expect(fired([card], ["ship in a storm", "then a gale"])).toEqual([
      { name: "Storm ship", because: '"ship" in your message, and "storm", "gale"' },
    ]);
  });

  it("NOT ANY: a trigger and none of the secondary keys", () => {
    const card = lore("Calm ship", ["ship"], {
      secondaryTriggers: ["storm", "gale"],
      selectiveLogic: "not_any",
    });
    expect(fired([card], ["the ship", "a storm"])).toEqual([]);
    expect(fired([card], ["the ship in calm water"])).toEqual([
      { name: "Calm ship", because: '"ship" in your message, without "storm", "gale"' },
    ]);
  });

  it("NOT ALL: a trigger and not every secondary key", () => {
    const card = lore("Half storm", ["ship"], {
      secondaryTriggers: ["storm", "gale"],
      selectiveLogic: "not_all",
    });
    expect(fired([card], ["the ship in a storm and a gale"])).toEqual([]);
    expect(fired([card], ["the ship in a storm"])).toEqual([
      { name: "Half storm", because: '"ship" in your message, without "gale"' },
    ]);
  });

  it("ignores the selective logic when there are no secondary keys", () => {
    const card = lore("Ship", ["ship"], { secondaryTriggers: [], selectiveLogic: "and_all" });
    expect(names(activeCards([card], ["the ship"]))).toEqual(["Ship"]);
  });

  it("searches the scan depth's newest messages: 0 is the player's message only", () => {
    const history = ["Mara one", "two", "three"].map((content) => ({ content }));
    const mara = [lore("Mara", ["Mara"])];
    expect(triggerTexts("now", history, 0)).toEqual(["now"]);
    expect(fired(mara, triggerTexts("now", history, 2))).toEqual([]);
    expect(fired(mara, triggerTexts("now", history, 3))).toEqual([
      { name: "Mara", because: '"Mara" in 3 messages back' },
    ]);
    expect(triggerTexts("now", history, 20)).toEqual(["now", "three", "two", "Mara one"]);
  });

  it("answers the reason as data: which key, where, and the secondary keys present or missing", () => {
    const card = lore("Ship", ["boat", "ship"], { secondaryTriggers: ["storm"], selectiveLogic: "and_any" });
    expect(activateCards([card], ["calm", "a storm hits the ship"])[0]!.reason).toEqual({
      kind: "key",
      key: "ship",
      where: "1 message back",
      messages_back: 1,
      secondary: ["storm"],
    });
    const calm = lore("Calm", ["ship"], { secondaryTriggers: ["storm"], selectiveLogic: "not_any" });
    expect(activateCards([calm], ["the ship"])[0]!.reason).toEqual({
      kind: "key",
      key: "ship",
      where: "your message",
      messages_back: 0,
      without: ["storm"],
    });
  });
});

describe("regexTriggerProblem (the save-time check of /pattern/flags triggers)", () => {
  it("accepts plain words and good patterns with the flags i, u, s and m", () => {
    expect(regexTriggerProblem("Mara")).toBeNull();
    expect(regexTriggerProblem("/ship(s|wreck)?/imsu")).toBeNull();
    expect(regexTriggerProblem("/[a-z]+ road/")).toBeNull();
  });

  it("names a pattern that does not compile, a flag it may not carry, or one that can take too long", () => {
    expect(regexTriggerProblem("/ship(/i")).toBe('triggers: "/ship(/i" is not a valid regular expression');
    expect(regexTriggerProblem("/ship/g")).toBe(
      'triggers: "/ship/g" has flags that cannot be used (only i, u, s and m, each once)',
    );
    expect(regexTriggerProblem("/ship/ii")).toContain("has flags that cannot be used");
    expect(regexTriggerProblem("/(a+)+$/")).toContain("can take too long to match");
    expect(regexTriggerProblem("/(\\w*)*x/")).toContain("can take too long to match");
    expect(regexTriggerProblem("/(a)\\1/")).toContain("can take too long to match");
    // A quantifier inside a character class is a character, not a repeat.
    expect(regexTriggerProblem("/([+*])+/")).toBeNull();
  });
});

describe("a slow /regex/ trigger", () => {
  it("answers within a second on a long message, however much the pattern backtracks", () => {
    const card = { name: "Slow", triggers: ["/a*a*a*a*b/"] };
    const started = performance.now();
    expect(activeCards([card], ["a".repeat(8000)])).toEqual([]);
    expect(activeCards([card], [`${"a".repeat(8000)}b`])).toEqual([card]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("cannot hold the server where V8's linear engine does not help (the i and u flags, lookaround)", () => {
    // Each passes the save-time check and backtracks exponentially: seconds on this text without a limit
    // (each added "a" doubles it).
    const cards = ["/(a|a)*$/i", "/(a|a)*$/u", "/(?=a)(a|a)*$/"].map((trigger) => ({
      name: trigger,
      triggers: [trigger],
    }));
    for (const card of cards) expect(regexTriggerProblem(card.triggers[0]!)).toBeNull();
    const good = { name: "Ship", triggers: ["/ship(s|wreck)?/i"] };
    const started = performance.now();
    const woken = activeCards([...cards, good], [`${"a".repeat(25)}!`, "A SHIPWRECK"]);
    expect(performance.now() - started).toBeLessThan(1500);
    // A trigger out of time matches nothing; the other cards are still matched as usual.
    expect(names(woken)).toEqual(["Ship"]);
    expect(activateCards([good], ["two ships, then a shipwreck"])[0]?.reason).toMatchObject({
      kind: "key",
      key: "/ship(s|wreck)?/i",
      messages_back: 0,
    });
  });
});

describe("a /regex/ trigger on a busy machine", () => {
  // The limit is wall-clock time: a match interrupted while the process waited for a core (it used no CPU) is
  // tried again; one that spent its time matching is not.
  const timedOut = () =>
    Object.assign(new Error("Script execution timed out after 25ms"), {
      code: "ERR_SCRIPT_EXECUTION_TIMEOUT",
    });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("still wakes its card when the first try was interrupted before it could run", () => {
    const run = vm.Script.prototype.runInContext;
    const tries = vi.spyOn(vm.Script.prototype, "runInContext").mockImplementationOnce(() => {
      throw timedOut();
    });
    tries.mockImplementation(function (this: vm.Script, ...args) {
      return run.apply(this, args);
    });
    expect(
      names(activeCards([card("Dragons", ["/drag(o|a)ns?/i"])], ["Two DRAGANS circle the tower."])),
    ).toEqual(["Dragons"]);
    expect(tries).toHaveBeenCalledTimes(2);
  });

  it("matches nothing, once, when the try spent its time matching", () => {
    const tries = vi.spyOn(vm.Script.prototype, "runInContext").mockImplementation(() => {
      const until = performance.now() + 30;
      while (performance.now() < until) {
        // Busy: CPU spent as a backtracking pattern spends it.
      }
      throw timedOut();
    });
    expect(activeCards([card("Slow", ["/a*a*a*b/"])], ["aaaa b"])).toEqual([]);
    expect(tries).toHaveBeenCalledTimes(1);
  });
});
