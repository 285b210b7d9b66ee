// A long story written straight to the database for recall's tests (hundreds of turns through the API would
// take minutes): the player's line and the narrator's answer per turn, one a second, a day ago.
import { chatMessages } from "../src/db/schema";
import type { TestApp } from "./app";
import type { TestUser } from "./factories";

const FILLER = [
  "The road bends north through wet fields.",
  "A crow watches from a fence post.",
  "Clouds pile up over the hills.",
  "You cross a stone bridge above a slow river.",
  "Smoke rises from a farmhouse far away.",
  "The wind smells of rain and cut hay.",
];

/**
 * `exchanges` turns of filler in the story; `told` puts words into the narrator's answer at chosen turns (1 the
 * first). They start a day ago, or a second after `after` (a branch's own turns after its fork).
 */
export async function writeExchanges(
  t: TestApp,
  user: TestUser,
  /** null: the main chat. */
  storyId: string | null,
  exchanges: number,
  told: Record<number, string>,
  after?: Date,
): Promise<void> {
  const start = after ? after.getTime() : t.clock.now().getTime() - 86_400_000;
  const rows = [];
  for (let turn = 1; turn <= exchanges; turn += 1) {
    const at = start + turn * 1000;
    const base = { userId: user.userId, storyId, mode: "chat" as const };
    rows.push(
      {
        ...base,
        role: "user" as const,
        content: `I walk on (${turn})`,
        createdAt: new Date(at),
        updatedAt: new Date(at),
      },
      {
        ...base,
        role: "assistant" as const,
        content: told[turn] ?? `${FILLER[turn % FILLER.length]} ${FILLER[(turn * 7) % FILLER.length]}`,
        createdAt: new Date(at + 1),
        updatedAt: new Date(at + 1),
      },
    );
  }
  for (let i = 0; i < rows.length; i += 200)
    await t.ctx.db.insert(chatMessages).values(rows.slice(i, i + 200));
}
