// What a story's turn asks of the modules around the conversation (`StoryHooks`): the stories module composes a
// story's turn, so it hands the conversation the story row's "played at" write and recall's search and index.
// The conversation then imports neither stories nor recall, which both read its messages (decision 0170).
import type { StoryHooks } from "../conversation";
import { queueEmbeddings, recallFor } from "../recall";
import { storyPlayed } from "./activity";

export const storyHooks: StoryHooks = {
  played: storyPlayed,
  recall: (ctx, who, words, witness) => recallFor(ctx, who.userId, who.storyId, words, witness),
  index: queueEmbeddings,
};
