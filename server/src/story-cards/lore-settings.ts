// A story's lore settings: the share of the narrator's context budget its Story Cards may take, how many
// recent messages are searched for triggers, and the narrator instructions an imported character card
// brought (or the player wrote). The creator's notes and the character's name come along read-only: an
// import sets them, the player reads them, the narrator never gets the notes. Owner only (others: 404).
import type { StoryLoreSettingsUpdate } from "@storyverse/contract/story-craft";
import type { AppContext } from "../context";
import { NotFound } from "../platform/errors";
import { findStory, type StoryRow, updateStory } from "../stories";

type LoreContext = Pick<AppContext, "db" | "clock">;

const toSettings = (story: StoryRow) => ({
  lore_budget_percent: story.loreBudgetPercent,
  lore_scan_depth: story.loreScanDepth,
  narrator_instructions: story.narratorInstructions,
  post_history_instructions: story.postHistoryInstructions,
  creator_notes: story.creatorNotes,
  character_name: story.characterName,
});

export async function loreSettings(ctx: LoreContext, userId: string, storyId: string) {
  const story = await findStory(ctx.db, userId, storyId);
  if (!story) throw new NotFound("Story not found");
  return toSettings(story);
}

/** The fields sent are replaced, the others kept (the request was checked whole before anything changes). */
export async function updateLoreSettings(
  ctx: LoreContext,
  userId: string,
  storyId: string,
  input: StoryLoreSettingsUpdate,
) {
  const changed = await updateStory(ctx.db, userId, storyId, {
    ...(input.lore_budget_percent !== undefined ? { loreBudgetPercent: input.lore_budget_percent } : {}),
    ...(input.lore_scan_depth !== undefined ? { loreScanDepth: input.lore_scan_depth } : {}),
    ...(input.narrator_instructions !== undefined
      ? { narratorInstructions: input.narrator_instructions.trim() }
      : {}),
    ...(input.post_history_instructions !== undefined
      ? { postHistoryInstructions: input.post_history_instructions.trim() }
      : {}),
    updatedAt: ctx.clock.now(),
  });
  if (!changed) throw new NotFound("Story not found");
  return loreSettings(ctx, userId, storyId);
}
