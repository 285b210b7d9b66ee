// Group scenes (issue 43 item 2, decision 0164): a story told by "group" has 2 to 8 of its cards present, in
// order, some of them muted (present, never speaking), and an order of speakers. Each speaking turn is one
// request, one paid unit: who speaks is decided here before the turn runs (the player's `speaker_id`, else the
// order's rule), and the turn plays that card in the first person, as the character teller does, with the
// others present named in its instructions. A branch's copy of the row names its source's cards, so each id is
// found in this row's cards by that id or by the source card's name (as teller.ts does).
import { createHash } from "node:crypto";
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import {
  GROUP_MAX_CHARACTERS,
  GROUP_MIN_CHARACTERS,
  SPEAKER_ORDERS,
  type SpeakerOrder,
} from "@storyverse/contract/generation-settings";
import { DEFAULT_TALKATIVENESS, isRegexTrigger } from "@storyverse/contract/story-cards";
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../context";
import type { GroupScene, StorySetting, TellingCharacter, TurnCard } from "../conversation";
import {
  findMessageById,
  recentMessages,
  runTurn,
  type TurnContext,
  type TurnStreaming,
  wasPresent,
} from "../conversation";
import { storyCards } from "../db/schema";
import { InvalidInput } from "../platform/errors";
import type { StoryRow } from "./repo";
import { storyHooks } from "./turn-hooks";

/** A card as stored: who speaks is read from the cards' rows (a listed trespass, module-boundaries.test.ts). */
type CardRow = typeof storyCards.$inferSelect;

export type GroupRow = Pick<
  StoryRow,
  "id" | "userId" | "teller" | "groupCardIds" | "speakerOrder" | "mutedCardIds"
>;

/** A group story as its speaking turns read it: the group, and whether each knows only what they saw. */
type SpeakingRow = GroupRow & Pick<StoryRow, "knowsWhatTheySaw" | "summaryWitnesses">;

export const speakerOrderOf = (story: Pick<StoryRow, "speakerOrder">): SpeakerOrder =>
  (SPEAKER_ORDERS as readonly string[]).includes(story.speakerOrder)
    ? (story.speakerOrder as SpeakerOrder)
    : "natural";

/** This row's cards for the stored ids, in their order: by id, else by the (branch source) card's name. */
async function cardsByIds(
  ctx: Pick<AppContext, "db">,
  story: Pick<StoryRow, "id" | "userId">,
  ids: readonly string[],
): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  const own = await ctx.db
    .select()
    .from(storyCards)
    .where(and(eq(storyCards.userId, story.userId), eq(storyCards.storyId, story.id)));
  const byId = new Map(own.map((card) => [card.id, card]));
  const missing = ids.filter((id) => !byId.has(id));
  const names = missing.length
    ? new Map(
        (
          await ctx.db
            .select({ id: storyCards.id, name: storyCards.name })
            .from(storyCards)
            .where(and(eq(storyCards.userId, story.userId), inArray(storyCards.id, missing)))
        ).map((row) => [row.id, row.name.toLowerCase()]),
      )
    : new Map<string, string>();
  const found = ids.flatMap((id) => {
    const card = byId.get(id) ?? own.find((row) => row.name.toLowerCase() === names.get(id));
    return card ? [card] : [];
  });
  return [...new Map(found.map((card) => [card.id, card])).values()];
}

/** The group as this row has it: the present cards in order, the muted ones' ids, the order of speakers. */
export async function groupOf(ctx: Pick<AppContext, "db">, story: GroupRow) {
  const present = await cardsByIds(ctx, story, story.groupCardIds);
  const muted = await cardsByIds(ctx, story, story.mutedCardIds);
  const presentIds = new Set(present.map((card) => card.id));
  return {
    present,
    mutedIds: muted.map((card) => card.id).filter((id) => presentIds.has(id)),
    order: speakerOrderOf(story),
  };
}

/** Whether the story plays as a group now: told by "group" with at least two of its present cards left. */
export async function activeGroup(ctx: Pick<AppContext, "db">, story: GroupRow) {
  if (story.teller !== "group") return null;
  const group = await groupOf(ctx, story);
  const speaking = group.present.filter((card) => !group.mutedIds.includes(card.id));
  return group.present.length >= GROUP_MIN_CHARACTERS && speaking.length > 0 ? group : null;
}

/**
 * Checks a group settings change and answers the columns to write (the whole request is checked first, so a
 * refusal changes nothing). `character_ids`: 2 to 8 distinct cards of this story; `muted_ids`: some of them,
 * never all.
 */
export async function groupChange(
  ctx: Pick<AppContext, "db">,
  story: GroupRow,
  input: {
    teller?: string | undefined;
    character_ids?: string[] | undefined;
    speaker_order?: SpeakerOrder | undefined;
    muted_ids?: string[] | undefined;
  },
  groupTells: boolean,
): Promise<Partial<Pick<StoryRow, "teller" | "groupCardIds" | "speakerOrder" | "mutedCardIds">>> {
  const current = await groupOf(ctx, story);
  let presentIds = current.present.map((card) => card.id);
  if (groupTells && input.character_ids !== undefined) {
    const ids = input.character_ids;
    if (new Set(ids).size !== ids.length) {
      throw new InvalidInput("character_ids: name each character of the group once");
    }
    const rows = ids.length
      ? await ctx.db
          .select({ id: storyCards.id, storyId: storyCards.storyId })
          .from(storyCards)
          .where(and(eq(storyCards.userId, story.userId), inArray(storyCards.id, ids)))
      : [];
    for (const id of ids) {
      const row = rows.find((card) => card.id === id);
      if (!row) throw new InvalidInput(`character_ids: there is no card ${id}; choose this story's cards`);
      if (row.storyId !== story.id) {
        throw new InvalidInput(
          `character_ids: the card ${id} belongs to another story; choose this story's cards`,
        );
      }
    }
    presentIds = ids;
  }
  if (groupTells && presentIds.length < GROUP_MIN_CHARACTERS) {
    throw new InvalidInput(
      `A group scene holds ${GROUP_MIN_CHARACTERS} to ${GROUP_MAX_CHARACTERS} of this story's cards: send at least ${GROUP_MIN_CHARACTERS} ids in character_ids`,
    );
  }
  const muted =
    input.muted_ids ??
    (input.character_ids !== undefined
      ? current.mutedIds.filter((id) => presentIds.includes(id))
      : current.mutedIds);
  if (new Set(muted).size !== muted.length)
    throw new InvalidInput("muted_ids: name each muted character once");
  const away = muted.find((id) => !presentIds.includes(id));
  if (away !== undefined) {
    throw new InvalidInput(`muted_ids: ${away} is not one of the group's characters (character_ids)`);
  }
  if (groupTells && muted.length >= presentIds.length) {
    throw new InvalidInput("muted_ids: at least one character of the group must be left to speak");
  }
  return {
    ...(input.teller !== undefined ? { teller: "group" } : {}),
    ...(groupTells && input.character_ids !== undefined ? { groupCardIds: presentIds } : {}),
    ...(input.muted_ids !== undefined || (groupTells && input.character_ids !== undefined)
      ? { mutedCardIds: muted }
      : {}),
    ...(input.speaker_order !== undefined ? { speakerOrder: input.speaker_order } : {}),
  };
}

/** One of the group as the choice of speaker sees it. */
export type Speaker = { id: string; name: string; triggers: string[]; talkativeness: number };

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The words that name a character: its name, each word of its name (three letters or more), its triggers. */
function namesOf(card: Speaker): string[] {
  const words = card.name.split(/\s+/).filter((word) => word.length >= 3);
  const aliases = card.triggers.filter((trigger) => !isRegexTrigger(trigger) && trigger.trim());
  return [card.name, ...words, ...aliases].map((name) => name.trim()).filter(Boolean);
}

/** Where a character is first named in the words (case-insensitive, whole words), or -1. */
export function firstNamed(card: Speaker, words: string): number {
  let first = -1;
  for (const name of namesOf(card)) {
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${escaped(name)}(?![\\p{L}\\p{N}])`, "iu").exec(words);
    if (match && (first === -1 || match.index < first)) first = match.index;
  }
  return first;
}

/** A number in [0, 1) drawn from the seed (the same seed, the same draw). */
export const seededDraw = (seed: string): number =>
  createHash("sha256").update(seed).digest().readUInt32BE(0) / 2 ** 32;

/**
 * Who speaks this turn, and (order "all", a player's line) who speaks after, in order. `speakerId`: the
 * player's pick, a present unmuted card. `words`: the player's line (null: continue, no line). `lastSpeakerId`:
 * who spoke the newest narrator message. `seed` makes natural order's talkativeness draw deterministic.
 */
export function chooseSpeaker(input: {
  present: Speaker[];
  mutedIds: readonly string[];
  order: SpeakerOrder;
  speakerId?: string | undefined;
  words: string | null;
  lastSpeakerId: string | null;
  seed: string;
}): { speaker: Speaker; next: Speaker[] } {
  const speaking = input.present.filter((card) => !input.mutedIds.includes(card.id));
  if (input.speakerId !== undefined) {
    const picked = input.present.find((card) => card.id === input.speakerId);
    if (!picked) {
      throw new InvalidInput(
        `speaker_id: ${input.speakerId} is not one of the characters present in this scene`,
      );
    }
    if (input.mutedIds.includes(picked.id)) {
      throw new InvalidInput(`speaker_id: ${picked.name} is muted in this scene; unmute them first`);
    }
    return { speaker: picked, next: [] };
  }
  if (input.order === "manual") {
    throw new InvalidInput(
      "speaker_id: this scene's speakers are chosen by the player; send the id of the character who speaks",
    );
  }
  const [first] = speaking;
  if (!first) throw new InvalidInput("Every character of this scene is muted; unmute one to play");
  const lastIndex = input.present.findIndex((card) => card.id === input.lastSpeakerId);
  // The present after the last speaker, cycling, unmuted only.
  const cycled = [...input.present.slice(lastIndex + 1), ...input.present.slice(0, lastIndex + 1)].filter(
    (card) => !input.mutedIds.includes(card.id),
  );
  if (input.order === "round_robin") return { speaker: cycled[0] ?? first, next: [] };
  if (input.order === "all") {
    const inTurn = input.words === null ? cycled : speaking;
    return { speaker: inTurn[0] ?? first, next: inTurn.slice(1) };
  }
  // Natural: whoever the player's line names first answers.
  if (input.words) {
    const named = speaking
      .map((card) => ({ card, at: firstNamed(card, input.words ?? "") }))
      .filter((entry) => entry.at >= 0)
      .sort((a, b) => a.at - b.at);
    if (named[0]) return { speaker: named[0].card, next: [] };
  }
  // Else a draw weighed by talkativeness among those who volunteer (talkativeness above 0), not the last
  // speaker when another can; nobody volunteering: any but the last speaker.
  const others = speaking.filter((card) => card.id !== input.lastSpeakerId);
  const volunteers = (cards: Speaker[]) => cards.filter((card) => card.talkativeness > 0);
  const pool =
    [volunteers(others), volunteers(speaking), others, speaking].find((cards) => cards.length > 0) ?? [];
  const weights = pool.map((card) => Math.max(0, card.talkativeness));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const draw = seededDraw(input.seed) * (total > 0 ? total : pool.length);
  let reached = 0;
  for (const [index, card] of pool.entries()) {
    reached += total > 0 ? (weights[index] ?? 0) : 1;
    if (draw < reached) return { speaker: card, next: [] };
  }
  return { speaker: pool.at(-1) ?? first, next: [] };
}

export const speakerOfCard = (card: CardRow): Speaker => ({
  id: card.id,
  name: card.name,
  triggers: card.triggers,
  talkativeness: Number.isFinite(card.talkativeness) ? card.talkativeness : DEFAULT_TALKATIVENESS,
});

/** The card as a character teller plays it (teller.ts's tellerForTurn, for any card). */
export function tellingCharacter(card: CardRow): TellingCharacter {
  const greeting = card.characterCard?.first_mes;
  const nickname = card.characterCard?.nickname;
  return {
    cardId: card.id,
    name: card.name,
    description: card.description,
    greeting: typeof greeting === "string" ? greeting : "",
    ...(card.characterCard
      ? { ownName: typeof nickname === "string" && nickname.trim() ? nickname.trim() : card.name }
      : {}),
  };
}

/** A present card as the painter sees it: the turn's own (its reference pictures), else its portrait. */
const paintedCard = (card: CardRow, cards: TurnCard[] | undefined): TurnCard =>
  cards?.find((turnCard) => turnCard.id === card.id) ?? {
    id: card.id,
    name: card.name,
    kind: card.kind,
    triggers: card.triggers,
    description: card.description,
    portraitKey: card.portraitKey,
  };

/**
 * The setting of one speaking turn of a group: the speaker played as the character teller, the others present
 * named and described, the present cards (the speaker first) for the scene's references. In a story that keeps
 * each character to what they saw (decision 0165) the speaker is the turn's witness, and the summary is left
 * out unless they were present for every message it folds.
 */
export function groupTurnSetting(
  setting: StorySetting,
  present: CardRow[],
  speaker: Speaker,
  lastSpeaker: { card_id: string; name: string } | null,
  story: Pick<StoryRow, "knowsWhatTheySaw" | "summaryWitnesses">,
): StorySetting {
  const card = present.find((row) => row.id === speaker.id);
  if (!card) return setting;
  const others = present.filter((row) => row.id !== card.id);
  const witness = story.knowsWhatTheySaw ? { cardId: card.id, name: card.name } : undefined;
  const group: GroupScene = {
    others: others.map((row) => ({ cardId: row.id, name: row.name, description: row.description })),
    present: [card, ...others].map((row) => paintedCard(row, setting.cards)),
    ...(lastSpeaker && lastSpeaker.card_id !== card.id ? { answering: lastSpeaker.name } : {}),
    ...(witness ? { witness } : {}),
  };
  const summary = witness && !wasPresent(story.summaryWitnesses, witness) ? "" : setting.summary;
  return { ...setting, summary, teller: tellingCharacter(card), group };
}

/**
 * The setting of a group story's next speaking turn and who speaks after (order "all"), or null when the story
 * is not a group scene (a `speaker_id` is then refused). `words`: the player's line; null for continue.
 */
export async function groupSpeaking(
  ctx: Pick<AppContext, "db">,
  story: SpeakingRow,
  setting: StorySetting,
  input: { speakerId?: string | undefined; words: string | null },
): Promise<{ setting: StorySetting; next: { card_id: string; name: string }[] } | null> {
  const group = await activeGroup(ctx, story);
  if (!group) {
    if (input.speakerId !== undefined) {
      throw new InvalidInput(
        'speaker_id: only a group scene names who speaks (teller "group" in the settings)',
      );
    }
    return null;
  }
  const recent = await recentMessages(ctx.db, story.userId, story.id, HISTORY_WINDOW);
  const lastSpeaker = recent.findLast((message) => message.role === "assistant")?.speaker ?? null;
  // A branch's messages before its fork name the source's cards: the speaker is found by id, else by name.
  const lastCard =
    group.present.find((card) => card.id === lastSpeaker?.card_id) ??
    group.present.find((card) => card.name.toLowerCase() === lastSpeaker?.name.toLowerCase());
  const { speaker, next } = chooseSpeaker({
    present: group.present.map(speakerOfCard),
    mutedIds: group.mutedIds,
    order: group.order,
    speakerId: input.speakerId,
    words: input.words,
    lastSpeakerId: lastCard?.id ?? null,
    // The same conversation, the same draw (tests can assert it): the newest message's id, else the story's.
    seed: `${story.id}:${recent.at(-1)?.id ?? ""}`,
  });
  return {
    setting: groupTurnSetting(
      setting,
      group.present,
      speaker,
      lastCard ? { card_id: lastCard.id, name: lastSpeaker?.name ?? lastCard.name } : null,
      story,
    ),
    next: next.map((card) => ({ card_id: card.id, name: card.name })),
  };
}

/** A retry in a group scene: the retried message's speaker speaks again (null: not a group, or none spoke). */
export async function groupRetrySetting(
  ctx: Pick<AppContext, "db">,
  story: SpeakingRow,
  setting: StorySetting,
  messageId: string,
): Promise<StorySetting | null> {
  const group = await activeGroup(ctx, story);
  if (!group) return null;
  const found = await findMessageById(ctx.db, messageId);
  const row = found?.userId === story.userId ? found : undefined;
  // A message from before a branch's fork names the source's card: found by id, else by name (as speakers are).
  const spoke = row?.speaker;
  const card =
    group.present.find((present) => present.id === spoke?.card_id) ??
    group.present.find((present) => present.name.toLowerCase() === spoke?.name.toLowerCase());
  return card ? groupTurnSetting(setting, group.present, speakerOfCard(card), null, story) : null;
}

/** What the next speaker is told on continue (a line of the instructions, never the player's). */
export const nextSpeakerInstruction = (name: string) =>
  `It is ${name}'s turn to speak: answer what was just said as ${name}, in the first person, and carry the ` +
  "scene on. Write only your own words and deeds.";

/**
 * Continue in a group scene (decision 0164): the next character speaks, a new narrator message without a
 * player line, priced as a chat turn (text only, like Continue), one paid unit with one outcome.
 */
export function nextSpeakerTurn(
  ctx: TurnContext,
  input: { userId: string; storyId: string; story: StorySetting },
  streaming?: TurnStreaming,
) {
  const name = input.story.teller?.name ?? "the next character";
  return runTurn(
    ctx,
    {
      userId: input.userId,
      storyId: input.storyId,
      hooks: storyHooks,
      story: input.story,
      mode: "chat",
      references: [],
    },
    {
      label: `${name} speaks`,
      prompt: nextSpeakerInstruction(name),
      promptIsInstruction: true,
      history: () => recentMessages(ctx.db, input.userId, input.storyId, HISTORY_WINDOW),
      beforeAnswer: async () => {},
    },
    streaming,
  );
}
