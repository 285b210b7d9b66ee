import { describe, expect, it } from "vitest";
import { draftCardOffline, passageNames } from "./card-drafter";

/** A card-draft request: the facts beside the messages a vendor model reads (their wording is not read here). */
const request = (passage: string, existingCards: string[], storyTitle = "") => ({
  purpose: "card-draft" as const,
  storyTitle,
  existingCards,
  passage,
  messages: [
    { role: "system" as const, content: "Draft one Story Card from the passage, as JSON." },
    { role: "user" as const, content: passage },
  ],
});

const draft = (passage: string, existing = "") =>
  JSON.parse(draftCardOffline(request(passage, existing ? existing.split(", ") : []))) as {
    name: string;
    kind: string;
    triggers: string[];
    description: string;
  };

describe("the offline card drafter's name", () => {
  it("takes a capitalised name, never the common word that starts a sentence", () => {
    expect(passageNames("The storm hit. Mara lifted her lantern.")).toEqual(["Mara"]);
    expect(draft("The storm hit. Mara lifted her lantern.")).toMatchObject({
      name: "Mara",
      kind: "character",
      triggers: ["Mara"],
      description: "Mara lifted her lantern.",
    });
  });

  it("leaves the name empty when the passage names no one, for the player to give", () => {
    expect(passageNames("The door opened. You step inside. She smiles.")).toEqual([]);
    expect(draft("The door opened.")).toEqual({
      name: "",
      kind: "character",
      triggers: [],
      description: "The door opened.",
    });
  });

  it("prefers a name met mid-sentence over a sentence's first word, and skips adverbs", () => {
    expect(passageNames("Suddenly the bell rang. Lanterns swayed as Captain Rell walked in.")[0]).toBe(
      "Captain Rell",
    );
    expect(
      passageNames("Slowly the tide turned. Behind her the bell tolls. Beneath it, Ilse waits."),
    ).toEqual(["Ilse"]);
  });

  it("splits names at commas, strips possessives and skips names that already have a card", () => {
    expect(passageNames("You see Mara, Tam and Ilse. Tam's hat is wet.")).toEqual(["Tam", "Mara", "Ilse"]);
    expect(draft("You meet Mara and Tam at Ashford Keep. Mara waves.", "Mara").name).toBe("Tam");
  });

  it("does not take the story's title for a name", () => {
    const passage = "The story of *The Lantern Road* tightens. You meet a sailor named Tobin Marsh.";
    const asked = draftCardOffline(request(passage, [], "The Lantern Road"));
    expect(JSON.parse(asked)).toMatchObject({ name: "Tobin Marsh", kind: "character" });
  });

  it("drafts a place card for a name that ends like a place", () => {
    expect(draft("You reach the gates of Ashford Keep at dusk.")).toMatchObject({
      name: "Ashford Keep",
      kind: "place",
      triggers: ["Ashford Keep"],
    });
  });
});
