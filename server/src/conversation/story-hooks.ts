// What a story's turn asks of the modules around the conversation: the stories module hands these in
// (`stories/turn-hooks.ts`), so that the conversation imports neither stories nor recall (decision 0170).
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import type { RecalledExchange, Witness } from "./narration";

/** Handed in for a story's turn (the main chat has none): stories and recall both read the conversation. */
export type StoryHooks = {
  /** The story row's "played at" write (the story list's order, decision 0134), inside the turn's transaction. */
  played: (q: Queryable, userId: string, storyId: string, at: Date) => Promise<void>;
  /** The older exchanges these words bring back; for a speaker who knows only what they saw, those they saw. */
  recall: (
    ctx: Pick<AppContext, "db" | "providers" | "log">,
    who: { userId: string; storyId: string },
    words: string,
    witness: Witness | undefined,
  ) => Promise<RecalledExchange[]>;
  /** Indexes the story's newest narrator messages (or the one edited) for recall by meaning, in the background. */
  index: (
    ctx: Pick<AppContext, "db" | "providers" | "jobs" | "log">,
    userId: string,
    storyId: string,
    messageId?: string,
  ) => Promise<void>;
};
