// What a story's turn asks of the modules around the conversation (`StoryHooks`): the stories module composes a
// story's turn, so it hands the conversation the story row's "played at" write and recall's search and index.
// The conversation then imports neither stories nor recall, which both read its messages (decision 0170).
import type { StoryHooks } from "../conversation/story-hooks";
import { queueEmbeddings } from "../recall/embed-job";
import { recallExchanges } from "../recall/recall";
import { meaningOf } from "../recall/vectors";
import { storyPlayed } from "./activity";

export const storyHooks: StoryHooks = {
  played: storyPlayed,
  recall: async (ctx, who, words, witness) =>
    recallExchanges(ctx.db, who.userId, who.storyId, words, undefined, await meaningOf(ctx, words), witness),
  index: queueEmbeddings,
};
