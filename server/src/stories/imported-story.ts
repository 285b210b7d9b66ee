// A new story made from an imported character card (interop/): the story row with the card's prompts and
// names, its opening message with the greetings as versions, and its Story Cards, all in one transaction,
// so an import that fails anywhere leaves no story, message or card. The cards are made by the story cards
// module, handed in by the importer (decision 0171); the portrait files they stored are removed again when the
// transaction does not commit (the card maker cleans up its own failures).

import type { StoryCard } from "@storyverse/contract/story-cards";
import { eq } from "drizzle-orm";
import type { AppContext } from "../context";
import { insertOpeningMessage } from "../conversation";
import type { Queryable } from "../db/client";
import { stories } from "../db/schema";
import { storageWithin } from "../media";
import { storyCache } from "./repo";

type ImportContext = Pick<AppContext, "db" | "clock" | "storage" | "log">;

/** Everything an imported story's row and opening start with, already cut to the app's limits by the importer. */
export type ImportedStoryInput = {
  title: string;
  context: string;
  memory: string;
  narratorInstructions: string;
  postHistoryInstructions: string;
  creatorNotes: string;
  characterName: string;
  /** The opening message's versions, the first shown (macros already replaced). */
  greetings: string[];
};

/** The imported story's cards, made in the story's transaction, and their files removed if it rolls back. */
export type ImportedCardsMaker = {
  make(
    ctx: ImportContext,
    storyId: string,
  ): Promise<{ cards: Pick<StoryCard, "id" | "name" | "from_character_card">[]; portraitKeys: string[] }>;
  discard(ctx: ImportContext, keys: string[]): Promise<void>;
};

async function insertStoryRow(q: Queryable, userId: string, input: ImportedStoryInput, at: Date) {
  const [row] = await q
    .insert(stories)
    .values({
      userId,
      title: input.title,
      context: input.context,
      memory: input.memory,
      narratorInstructions: input.narratorInstructions,
      postHistoryInstructions: input.postHistoryInstructions,
      creatorNotes: input.creatorNotes,
      characterName: input.characterName,
      createdAt: at,
      updatedAt: at,
      lastActivity: at,
    })
    .returning({ id: stories.id });
  storyCache.invalidate(q, userId);
  return row!.id;
}

/** Creates the story, its opening and its cards; answers the new story's id. */
export async function insertImportedStory(
  ctx: ImportContext,
  userId: string,
  input: ImportedStoryInput,
  cards: ImportedCardsMaker,
): Promise<string> {
  const at = ctx.clock.now();
  let portraits: string[] = [];
  try {
    return await ctx.db.transaction(async (tx) => {
      const storyId = await insertStoryRow(tx, userId, input, at);
      // The portraits are counted against the storage quota in this transaction (media/quota.ts).
      const txCtx = { ...ctx, db: tx, storage: storageWithin(ctx.storage, tx) };
      const made = await cards.make(txCtx, storyId);
      portraits = made.portraitKeys;
      // The card's character tells the story from the first turn (decision 0154).
      const character = made.cards.find((card) => card.from_character_card);
      if (character) {
        await tx
          .update(stories)
          .set({ teller: "character", tellerCardId: character.id })
          .where(eq(stories.id, storyId));
      }
      // Its greeting is the character's first words.
      await insertOpeningMessage(tx, {
        userId,
        storyId,
        greetings: input.greetings,
        at,
        speaker: character ? { card_id: character.id, name: character.name } : null,
      });
      return storyId;
    });
  } catch (error) {
    // The cards' rows were rolled back with the story: the files they stored go too.
    await cards.discard(ctx, portraits);
    throw error;
  }
}
