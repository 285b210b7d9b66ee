// Living lore (issue #29 part 2): after each turn the narration is read for named people, places and things
// that have no Story Card, and they are offered as draft cards the player accepts (maybe edited) or dismisses.
// A dismissed name is never offered again.
import { z } from "zod";
import { CARD_KINDS, storyCardSchema } from "./story-cards";

/** At most this many drafts wait for the player in a story; more are offered once some are handled. */
export const LORE_SUGGESTIONS_MAX = 20;
export const SUGGESTION_HANDLED_DETAIL = "This draft was already accepted or dismissed.";

export const loreSuggestionSchema = z.object({
  id: z.string(),
  /** As the narration wrote it, with its article ("the Salt Gate"). */
  name: z.string(),
  kind: z.enum(CARD_KINDS),
  triggers: z.array(z.string()),
  description: z.string(),
  created_at: z.string(),
});
export type LoreSuggestion = z.infer<typeof loreSuggestionSchema>;

export const loreSuggestionsResponseSchema = z.object({
  success: z.literal(true),
  suggestions: z.array(loreSuggestionSchema),
});

/** Accepting may carry the player's edits of the draft (the fields sent replace the draft's). */
export const acceptSuggestionRequestSchema = z
  .object({
    name: z.string().optional(),
    kind: z.string().optional(),
    triggers: z.array(z.string()).optional(),
    description: z.string().optional(),
  })
  .strict()
  // A POST without a body accepts the draft as offered.
  .nullish();
export type AcceptSuggestionRequest = z.input<typeof acceptSuggestionRequestSchema>;

export const acceptSuggestionResponseSchema = z.object({ success: z.literal(true), card: storyCardSchema });
export const dismissSuggestionResponseSchema = z.object({ success: z.literal(true) });

/** The notice's words: "3 new: Brannoc, the Salt Gate, the Heron Lantern". */
export function loreNotice(names: string[]): string {
  return `${names.length} new: ${names.join(", ")}`;
}
