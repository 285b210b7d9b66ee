// A story's opening message, written by someone else (an imported character card's first_mes and its
// alternate greetings): one narrator message whose versions are the greetings, the first shown, the others
// waiting to be switched to with the same versions the player has for retried answers (repo.ts). Nothing is
// charged and nothing is painted: the words are the card author's.
import type { MessageSpeaker } from "@storyverse/contract/chat";
import type { Queryable } from "../db/client";
import { insertMessage, startVersionGroup } from "./repo";

/**
 * Inserts the greetings as one narrator message with a version for each (none when `greetings` is empty).
 * Runs on the caller's transaction, so a story import that fails later leaves no message behind. `speaker`: the
 * character whose first words they are, when the character tells the story (decision 0154).
 */
export async function insertOpeningMessage(
  q: Queryable,
  input: { userId: string; storyId: string; greetings: string[]; at: Date; speaker?: MessageSpeaker | null },
): Promise<void> {
  const [first, ...others] = input.greetings;
  if (first === undefined) return;
  const base = {
    userId: input.userId,
    storyId: input.storyId,
    role: "assistant" as const,
    mode: "chat" as const,
    createdAt: input.at,
    updatedAt: input.at,
    ...(input.speaker && { speaker: input.speaker }),
  };
  const shown = await insertMessage(q, { ...base, content: first });
  if (others.length === 0) return;
  await startVersionGroup(q, shown.id);
  for (const [index, content] of others.entries()) {
    await insertMessage(q, {
      ...base,
      content,
      versionGroup: shown.id,
      versionNumber: index + 2,
      hidden: true,
    });
  }
}
