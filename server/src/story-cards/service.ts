// The story cards' operations as the card routes and the interop module ask for them (decision 0171), once
// pass-throughs of the stories module. Every caller is a route under /api/stories/{id}, whose story scope has
// answered 404 for a story that is not the caller's; the writes read the story by its owner once more, so a
// card can never be made under another player's story whatever calls them.
import type { AppContext } from "../context";
import { NotFound } from "../platform/errors";
import { findStory } from "../stories";
import { assertVoiceOffered } from "../voices";
import { draftCardFromMessage } from "./card-draft";
import {
  cardsForExport,
  createImportedCards,
  createStoryCard,
  type ImportedCardInput,
  updateStoryCard,
} from "./cards";

type CardsContext = Pick<AppContext, "db" | "clock" | "storage" | "log" | "providers">;

async function ownStory(ctx: Pick<AppContext, "db">, userId: string, storyId: string) {
  const story = await findStory(ctx.db, userId, storyId);
  if (!story) throw new NotFound("Story not found");
  return story;
}

/** A new card; its voice, if it has one, must be one the speech provider offers. */
export async function createCard(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  input: Parameters<typeof createStoryCard>[3],
) {
  await ownStory(ctx, userId, storyId);
  if (input.voice) await assertVoiceOffered(ctx, input.voice);
  return createStoryCard(ctx, userId, storyId, input);
}

export async function updateCard(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  cardId: string,
  input: Parameters<typeof updateStoryCard>[4],
) {
  await ownStory(ctx, userId, storyId);
  if (input.voice) await assertVoiceOffered(ctx, input.voice);
  return updateStoryCard(ctx, userId, storyId, cardId, input);
}

/** "Make a card": a draft from one of the story's narrator messages, not saved. */
export async function cardDraft(ctx: CardsContext, userId: string, storyId: string, messageId: string) {
  return draftCardFromMessage(ctx, userId, await ownStory(ctx, userId, storyId), messageId);
}

/** Cards from an imported card or lorebook, added to one of the user's stories (all of them or none). */
export async function importCards(
  ctx: CardsContext,
  userId: string,
  storyId: string,
  cards: ImportedCardInput[],
  replacing: { id: string; card: ImportedCardInput }[] = [],
) {
  await ownStory(ctx, userId, storyId);
  return (await createImportedCards(ctx, userId, storyId, cards, replacing)).cards;
}

/** A story's cards (or the one card `cardId`) with all they hold, for an export; NotFound when not there. */
export async function exportCards(ctx: CardsContext, userId: string, storyId: string, cardId?: string) {
  const story = await ownStory(ctx, userId, storyId);
  const cards = await cardsForExport(ctx, userId, storyId, cardId);
  if (cardId !== undefined && cards.length === 0) throw new NotFound("Card not found");
  return { title: story.title, cards };
}
