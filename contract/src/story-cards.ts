// Story Cards: per-story characters, places and things the narrator is reminded of when one of their
// trigger words comes up, with an optional portrait that goes to the painter as a reference image.
import { z } from "zod";

export const STORY_CARDS_MAX = 100;
export const CARD_NAME_MAX_LENGTH = 60;
export const CARD_TRIGGERS_MAX = 10;
export const CARD_TRIGGER_MAX_LENGTH = 40;
export const CARD_DESCRIPTION_MAX_LENGTH = 1000;
/** A card is active when a trigger appears in the prompt or in this many newest messages. */
export const CARD_TRIGGER_WINDOW = 4;

export const CARD_KINDS = ["character", "place", "thing", "other"] as const;
export type CardKind = (typeof CARD_KINDS)[number];

export const TOO_MANY_CARDS_DETAIL = `A story can have at most ${STORY_CARDS_MAX} cards.`;
export const DUPLICATE_CARD_NAME_DETAIL = "name: this story already has a card with that name.";
export const PORTRAIT_NOT_YOURS_DETAIL = "portrait: the portrait must be one of your own gallery images.";
/** An uploaded portrait is kept at most this many pixels on its long side (re-encoded as WebP). */
export const PORTRAIT_MAX_EDGE = 1024;
/** Uploaded portraits one account may keep, across its stories (gallery images as portraits do not count). */
export const PORTRAIT_UPLOADS_MAX = 100;
export const TOO_MANY_PORTRAITS_DETAIL = `portrait: you can keep at most ${PORTRAIT_UPLOADS_MAX} uploaded portraits. Use a picture from your gallery, or remove an uploaded portrait from another card first.`;

const nameSchema = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name is required")
  .max(CARD_NAME_MAX_LENGTH, `name must be at most ${CARD_NAME_MAX_LENGTH} characters`);

const triggerSchema = z
  .string({ error: "each trigger must be text" })
  .trim()
  .min(1, "triggers must not be empty")
  .max(CARD_TRIGGER_MAX_LENGTH, `each trigger must be at most ${CARD_TRIGGER_MAX_LENGTH} characters`);

const triggersSchema = z
  .array(triggerSchema, { error: "triggers must be a list of words" })
  .min(1, "triggers: give at least one trigger word")
  .max(CARD_TRIGGERS_MAX, `triggers: at most ${CARD_TRIGGERS_MAX} trigger words`);

const descriptionSchema = z
  .string({ error: "description must be text" })
  .max(CARD_DESCRIPTION_MAX_LENGTH, `description must be at most ${CARD_DESCRIPTION_MAX_LENGTH} characters`);

/** One of the player's gallery images, or an upload (a data: URL, checked like the Studio's inputs). */
export const cardPortraitInputSchema = z
  .union([
    z.object({ gallery_item_id: z.string().min(1).max(100) }).strict(),
    z.object({ data: z.string().min(1).max(15_000_000), name: z.string().max(255).optional() }).strict(),
  ])
  .nullable();
export type CardPortraitInput = z.infer<typeof cardPortraitInputSchema>;

export const createCardRequestSchema = z.object({
  name: nameSchema,
  kind: z.enum(CARD_KINDS, { error: "kind must be character, place, thing or other" }).default("character"),
  triggers: triggersSchema,
  description: descriptionSchema.default(""),
  portrait: cardPortraitInputSchema.optional().default(null),
  enabled: z.boolean({ error: "enabled must be true or false" }).default(true),
});
export type CreateCardRequest = z.input<typeof createCardRequestSchema>;

/** A change: the fields sent are replaced; `portrait: null` removes it, leaving it out keeps it. */
export const updateCardRequestSchema = z
  .object({
    name: nameSchema.optional(),
    kind: z.enum(CARD_KINDS, { error: "kind must be character, place, thing or other" }).optional(),
    triggers: triggersSchema.optional(),
    description: descriptionSchema.optional(),
    portrait: cardPortraitInputSchema.optional(),
    enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: "Nothing to update: send name, kind, triggers, description, portrait or enabled",
  });
export type UpdateCardRequest = z.input<typeof updateCardRequestSchema>;

export const storyCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(CARD_KINDS),
  triggers: z.array(z.string()),
  description: z.string(),
  /** What the client shows; `gallery_item_id` is null for an upload the card owns. */
  portrait: z.object({ url: z.string(), gallery_item_id: z.string().nullable() }).nullable(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StoryCard = z.infer<typeof storyCardSchema>;

export const storyCardsResponseSchema = z.object({
  success: z.literal(true),
  cards: z.array(storyCardSchema),
});
export const storyCardResponseSchema = z.object({ success: z.literal(true), card: storyCardSchema });
export const deleteCardResponseSchema = z.object({ success: z.literal(true) });

/** "Make a card": a draft from a narrator message, not saved until the player saves it. */
export const cardDraftSchema = z.object({
  name: z.string(),
  kind: z.enum(CARD_KINDS),
  triggers: z.array(z.string()),
  description: z.string(),
});
export type CardDraft = z.infer<typeof cardDraftSchema>;
export const cardDraftResponseSchema = z.object({ success: z.literal(true), draft: cardDraftSchema });
