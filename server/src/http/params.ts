// The path parameters the story routes share, written once: a story's id (a malformed one answers 404
// "Story not found", like an unknown one) and a message of that story. A route with more parameters extends
// these, so every story sub-route names and checks its story the same way.
import { z } from "zod";

export const storyParams = z.object({ id: z.uuid("Story not found") });

export const storyMessageParams = storyParams.extend({ message_id: z.uuid("Message not found") });
