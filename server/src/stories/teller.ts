// Who tells a story (issue 43 item 1, decision 0154): the narrator (second person) or a character, one of the
// story's cards played in the first person. The story row keeps `teller` and `teller_card_id`; a branch's copy
// of the row names its source's card, so the card is found in this row's cards by that id or by its name (the
// branch's copy of it). A card that is gone leaves the story told by the narrator.
import type { SpeakerOrder, Teller } from "@storyverse/contract/generation-settings";
import { and, eq, or, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { TellingCharacter } from "../conversation";
import { storyCards } from "../db/schema";
import { InvalidInput } from "../platform/errors";
import { activeGroup, groupChange, groupOf } from "./group";
import type { StoryRow } from "./repo";

/** A card as stored: who speaks is read from the cards' rows (a listed trespass, module-boundaries.test.ts). */
type CardRow = typeof storyCards.$inferSelect;

type TellerRow = Pick<
  StoryRow,
  "id" | "userId" | "teller" | "tellerCardId" | "groupCardIds" | "speakerOrder" | "mutedCardIds"
>;

/** The card the story's character teller plays (whether or not the story is in character mode), or null. */
export async function tellerCardOf(ctx: Pick<AppContext, "db">, story: TellerRow): Promise<CardRow | null> {
  if (!story.tellerCardId) return null;
  const named = sql`(select lower(${storyCards.name}) from ${storyCards} where ${storyCards.id} = ${story.tellerCardId})`;
  const rows = await ctx.db
    .select()
    .from(storyCards)
    .where(
      and(
        eq(storyCards.userId, story.userId),
        eq(storyCards.storyId, story.id),
        or(eq(storyCards.id, story.tellerCardId), sql`lower(${storyCards.name}) = ${named}`),
      ),
    );
  return rows.find((row) => row.id === story.tellerCardId) ?? rows[0] ?? null;
}

/**
 * Who tells the story as the API says it: "character" only while its card exists, "group" while two of its
 * present cards exist (decision 0164; `character_ids` then the present cards in order).
 */
export async function tellerOf(
  ctx: Pick<AppContext, "db">,
  story: TellerRow,
): Promise<{
  teller: Teller;
  character_ids: string[];
  card: CardRow | null;
  speaker_order: SpeakerOrder;
  muted_ids: string[];
}> {
  const card = await tellerCardOf(ctx, story);
  const group = await groupOf(ctx, story);
  const grouped = { speaker_order: group.order, muted_ids: group.mutedIds };
  if (story.teller === "group" && (await activeGroup(ctx, story))) {
    return { teller: "group", character_ids: group.present.map((row) => row.id), card, ...grouped };
  }
  const teller: Teller = story.teller === "character" && card ? "character" : "narrator";
  return { teller, character_ids: card ? [card.id] : [], card, ...grouped };
}

/**
 * Checks a settings change of who tells the story and answers the columns to write. `character_ids` must name
 * one of this story's cards; character mode needs one (sent now or chosen before). Changes nothing on refusal.
 */
export async function tellerChange(
  ctx: Pick<AppContext, "db">,
  story: TellerRow,
  input: {
    teller?: Teller | undefined;
    character_ids?: string[] | undefined;
    speaker_order?: SpeakerOrder | undefined;
    muted_ids?: string[] | undefined;
  },
): Promise<
  Partial<Pick<StoryRow, "teller" | "tellerCardId" | "groupCardIds" | "speakerOrder" | "mutedCardIds">>
> {
  // A group (decision 0164): its own checks; the order and the muted are kept whoever tells the story.
  const groupTells = (input.teller ?? story.teller) === "group";
  const grouped =
    groupTells || input.speaker_order !== undefined || input.muted_ids !== undefined
      ? await groupChange(ctx, story, input, groupTells)
      : {};
  if (groupTells) return grouped;
  if (input.teller === undefined && input.character_ids === undefined) return grouped;
  if ((input.character_ids?.length ?? 0) > 1) {
    throw new InvalidInput(
      'character_ids: a character teller plays exactly one card (several are a group: teller "group")',
    );
  }
  let cardId: string | null | undefined;
  if (input.character_ids !== undefined) {
    const [id] = input.character_ids;
    if (id === undefined) cardId = null;
    else {
      const [card] = await ctx.db
        .select({ storyId: storyCards.storyId })
        .from(storyCards)
        .where(and(eq(storyCards.id, id), eq(storyCards.userId, story.userId)));
      if (!card)
        throw new InvalidInput(`character_ids: there is no card ${id}; choose one of this story's cards`);
      if (card.storyId !== story.id) {
        throw new InvalidInput(
          `character_ids: the card ${id} belongs to another story; choose one of this story's cards`,
        );
      }
      cardId = id;
    }
  }
  const teller = input.teller ?? (story.teller === "character" ? "character" : "narrator");
  const chosen = cardId !== undefined ? cardId : (await tellerCardOf(ctx, story))?.id;
  if (teller === "character" && !chosen) {
    throw new InvalidInput(
      "A character teller plays one of this story's cards: send its id in character_ids (exactly one)",
    );
  }
  return {
    ...grouped,
    ...(input.teller !== undefined ? { teller } : {}),
    ...(cardId !== undefined ? { tellerCardId: cardId } : {}),
  };
}

/** What a turn of a story in character mode knows of its character (StorySetting.teller); {} for the narrator. */
export async function tellerForTurn(
  ctx: Pick<AppContext, "db">,
  story: TellerRow,
): Promise<{ teller?: TellingCharacter }> {
  const { teller, card } = await tellerOf(ctx, story);
  if (teller !== "character" || !card) return {};
  const greeting = card.characterCard?.first_mes;
  const nickname = card.characterCard?.nickname;
  return {
    teller: {
      cardId: card.id,
      name: card.name,
      description: card.description,
      greeting: typeof greeting === "string" ? greeting : "",
      ...(card.characterCard
        ? { ownName: typeof nickname === "string" && nickname.trim() ? nickname.trim() : card.name }
        : {}),
    },
  };
}
