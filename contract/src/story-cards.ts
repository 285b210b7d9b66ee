// Story Cards: per-story characters, places and things the narrator is reminded of when one of their
// trigger words comes up, with an optional portrait that goes to the painter as a reference image, and the
// lore rules of imported lorebooks (secondary triggers with selective logic, constant, order, priority, case,
// `/regex/flags` triggers).
import { z } from "zod";
import { appearanceSchema } from "./camera";
import { voiceIdSchema } from "./voice";

export const STORY_CARDS_MAX = 100;
export const CARD_NAME_MAX_LENGTH = 60;
export const CARD_TRIGGERS_MAX = 10;
export const CARD_TRIGGER_MAX_LENGTH = 40;
/**
 * The longest field a character card brings is kept whole up to this (the card ecosystem's descriptions run
 * to several thousand characters; decision 0142). A Story Card's description and a lore entry's content are
 * such fields; what reaches the narrator is decided by its token budget.
 */
export const CARD_FIELD_MAX_LENGTH = 32_000;
/** A Story Card's description (and so a lore entry's content): a whole card field, CARD_FIELD_MAX_LENGTH. */
export const CARD_DESCRIPTION_MAX_LENGTH = 32_000;
/** A card is active when a trigger appears in the prompt or in this many newest messages (a story's default scan depth). */
export const CARD_TRIGGER_WINDOW = 4;

/** Lore rules (issue #27): which secondary keys must (or must not) appear besides a trigger, as in SillyTavern. */
export const SELECTIVE_LOGICS = ["and_any", "and_all", "not_any", "not_all"] as const;
export type SelectiveLogic = (typeof SELECTIVE_LOGICS)[number];
export const CARD_ORDER_MAX = 1000;
export const DEFAULT_INSERTION_ORDER = 100;
export const DEFAULT_PRIORITY = 10;
/** The flags a `/pattern/flags` trigger may carry. */
export const REGEX_TRIGGER_FLAGS = "imsu";
/** A group scene's natural order picks the next speaker by each card's talkativeness (decision 0164). */
export const DEFAULT_TALKATIVENESS = 0.5;
const talkativenessMessage = "talkativeness must be a number from 0 to 1";
export const talkativenessSchema = z
  .number({ error: talkativenessMessage })
  .min(0, talkativenessMessage)
  .max(1, talkativenessMessage);
export const EMPTY_TRIGGERS_DETAIL = "triggers: give at least one trigger word";

/**
 * A trigger written `/pattern/flags` is a regular expression: its parts, or null for a plain word. The one
 * test of that syntax, for the server (activation, imports, exports, living lore, speakers) and the web (the
 * trigger input): trimmed, a slash, a pattern of at least one character (lines included), a slash, then
 * lower-case letters only ("/Dragon/I" is a plain word; "/x/g" is a pattern whose flag regexTriggerProblem
 * refuses).
 */
export function regexTrigger(trigger: string): { source: string; flags: string } | null {
  const match = /^\/(.+)\/([a-z]*)$/s.exec(trigger.trim());
  return match ? { source: match[1]!, flags: match[2]! } : null;
}

/** Whether a trigger is a `/pattern/flags` regular expression rather than a plain word (see regexTrigger). */
export const isRegexTrigger = (trigger: string): boolean => regexTrigger(trigger) !== null;

/**
 * Nested quantifiers ("(a+)+") and back-references can take exponential time on a long message: a trigger
 * is matched against every turn's messages on the server, so such patterns are refused.
 */
function slowPattern(source: string): boolean {
  if (/\\[1-9]|\\k</.test(source)) return true;
  const quantified: boolean[] = [false];
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\") {
      i++;
      continue;
    }
    if (char === "[") {
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      continue;
    }
    if (char === "(") quantified.push(false);
    else if (char === ")") {
      const inner = quantified.pop() ?? false;
      const next = source[i + 1];
      if (inner && (next === "*" || next === "+" || next === "{")) return true;
      if (inner) quantified[quantified.length - 1] = true;
    } else if (char === "*" || char === "+" || char === "{") quantified[quantified.length - 1] = true;
  }
  return false;
}

/** Why a `/pattern/flags` trigger cannot be used (the 400's detail), or null when it is fine or a plain word. */
export function regexTriggerProblem(trigger: string): string | null {
  const regex = regexTrigger(trigger);
  if (!regex) return null;
  const bad = [...regex.flags].filter(
    (flag, i) => !REGEX_TRIGGER_FLAGS.includes(flag) || regex.flags.indexOf(flag) !== i,
  );
  if (bad.length) {
    return `triggers: "${trigger.trim()}" has flags that cannot be used (only i, u, s and m, each once)`;
  }
  try {
    new RegExp(regex.source, regex.flags);
  } catch {
    return `triggers: "${trigger.trim()}" is not a valid regular expression`;
  }
  if (slowPattern(regex.source)) {
    return `triggers: "${trigger.trim()}" nests repeats or refers back, which can take too long to match`;
  }
  return null;
}

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
  .max(CARD_TRIGGER_MAX_LENGTH, `each trigger must be at most ${CARD_TRIGGER_MAX_LENGTH} characters`)
  .superRefine((trigger, ctx) => {
    const problem = regexTriggerProblem(trigger);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** May be empty only on a constant card (checked with the card's other fields). */
const triggersSchema = z
  .array(triggerSchema, { error: "triggers must be a list of words" })
  .max(CARD_TRIGGERS_MAX, `triggers: at most ${CARD_TRIGGERS_MAX} trigger words`);

const secondaryTriggersSchema = z
  .array(triggerSchema, { error: "secondary_triggers must be a list of words" })
  .max(CARD_TRIGGERS_MAX, `secondary_triggers: at most ${CARD_TRIGGERS_MAX} words`);

const selectiveLogicSchema = z.enum(SELECTIVE_LOGICS, {
  error: "selective_logic must be and_any, and_all, not_any or not_all",
});

const orderSchema = (field: string) =>
  z
    .number({ error: `${field} must be a whole number from 0 to ${CARD_ORDER_MAX}` })
    .int(`${field} must be a whole number from 0 to ${CARD_ORDER_MAX}`)
    .min(0, `${field} must be a whole number from 0 to ${CARD_ORDER_MAX}`)
    .max(CARD_ORDER_MAX, `${field} must be a whole number from 0 to ${CARD_ORDER_MAX}`);

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

/** A Story Card's reference pictures (views, outfits; decision 0161), its portrait the first. */
export const CARD_REFERENCES_MAX = 4;
export const TOO_MANY_CARD_REFERENCES_DETAIL = `references: a card holds at most ${CARD_REFERENCES_MAX} reference pictures.`;
export const REFERENCE_NOT_YOURS_DETAIL = "references: each picture must be one of your own gallery images.";
export const PORTRAIT_AND_REFERENCES_DETAIL =
  "portrait: send either portrait or references (whose first picture is the portrait), not both.";

export const KEPT_REFERENCE_UNKNOWN_DETAIL =
  "references: a kept picture must be one of this card's own pictures (its url as the card lists it).";

/**
 * One of a card's reference pictures: a gallery image of the player's or an upload, as a portrait, or (in a
 * change) one of the card's own uploaded pictures kept as it is, named by the url the card lists it with.
 */
export type CardReferenceInput = NonNullable<CardPortraitInput> | { kept_url: string };

/** All of a card's references, in order, the first being its portrait; `[]` removes them all. */
export const cardReferencesInputSchema = z
  .array(
    z.union([
      z.object({ gallery_item_id: z.string().min(1).max(100) }).strict(),
      z.object({ data: z.string().min(1).max(15_000_000), name: z.string().max(255).optional() }).strict(),
      z.object({ kept_url: z.string().min(1).max(4000) }).strict(),
    ]),
    { error: "references must be a list of pictures" },
  )
  .max(CARD_REFERENCES_MAX, TOO_MANY_CARD_REFERENCES_DETAIL);

/** A reference picture as the client shows it; `gallery_item_id` is null for an upload the card owns. */
export const cardReferenceSchema = z.object({ url: z.string(), gallery_item_id: z.string().nullable() });
export type CardReference = z.infer<typeof cardReferenceSchema>;

export const createCardRequestSchema = z
  .object({
    name: nameSchema,
    kind: z.enum(CARD_KINDS, { error: "kind must be character, place, thing or other" }).default("character"),
    triggers: triggersSchema,
    description: descriptionSchema.default(""),
    portrait: cardPortraitInputSchema.optional(),
    /** The card's reference pictures, the portrait first (instead of `portrait`); at most CARD_REFERENCES_MAX. */
    references: cardReferencesInputSchema.optional(),
    enabled: z.boolean({ error: "enabled must be true or false" }).default(true),
    secondary_triggers: secondaryTriggersSchema.default([]),
    selective_logic: selectiveLogicSchema.default("and_any"),
    constant: z.boolean({ error: "constant must be true or false" }).default(false),
    insertion_order: orderSchema("insertion_order").default(DEFAULT_INSERTION_ORDER),
    priority: orderSchema("priority").default(DEFAULT_PRIORITY),
    case_sensitive: z.boolean({ error: "case_sensitive must be true or false" }).default(false),
    /** The voice the character speaks in, one of GET /api/voices; null: one picked from its name. */
    voice: voiceIdSchema.nullable().default(null),
    /** How readily the character speaks in a group scene's natural order (0..1; decision 0164). */
    talkativeness: talkativenessSchema.default(DEFAULT_TALKATIVENESS),
    /** What the character looks like now (clothes, injuries, what they carry): every scene's picture keeps it. */
    appearance: appearanceSchema.default(""),
  })
  .superRefine((card, ctx) => {
    if (card.triggers.length === 0 && !card.constant) {
      ctx.addIssue({ code: "custom", path: ["triggers"], message: EMPTY_TRIGGERS_DETAIL });
    }
    if (card.portrait !== undefined && card.references !== undefined) {
      ctx.addIssue({ code: "custom", path: ["portrait"], message: PORTRAIT_AND_REFERENCES_DETAIL });
    }
  });
export type CreateCardRequest = z.input<typeof createCardRequestSchema>;

/**
 * A change: the fields sent are replaced; `portrait: null` removes it, leaving it out keeps it. `references`
 * replaces all the card's pictures (the portrait included); `portrait` alone replaces only the first.
 */
export const updateCardRequestSchema = z
  .object({
    name: nameSchema.optional(),
    kind: z.enum(CARD_KINDS, { error: "kind must be character, place, thing or other" }).optional(),
    triggers: triggersSchema.optional(),
    description: descriptionSchema.optional(),
    portrait: cardPortraitInputSchema.optional(),
    references: cardReferencesInputSchema.optional(),
    enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
    secondary_triggers: secondaryTriggersSchema.optional(),
    selective_logic: selectiveLogicSchema.optional(),
    constant: z.boolean({ error: "constant must be true or false" }).optional(),
    insertion_order: orderSchema("insertion_order").optional(),
    priority: orderSchema("priority").optional(),
    case_sensitive: z.boolean({ error: "case_sensitive must be true or false" }).optional(),
    voice: voiceIdSchema.nullable().optional(),
    talkativeness: talkativenessSchema.optional(),
    appearance: appearanceSchema.optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: "Nothing to update: send name, kind, triggers, description, portrait or enabled",
  })
  .refine((v) => v.portrait === undefined || v.references === undefined, {
    message: PORTRAIT_AND_REFERENCES_DETAIL,
    path: ["portrait"],
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
  /**
   * Every reference picture of the card (decision 0161), the portrait first (when it has one): all go to the
   * painter and the animator as character references when the card is active in a turn.
   */
  references: z.array(cardReferenceSchema),
  enabled: z.boolean(),
  /** Lore rules: a trigger wakes the card only if these words appear (or not) by `selective_logic`. */
  secondary_triggers: z.array(z.string()),
  selective_logic: z.enum(SELECTIVE_LOGICS),
  /** Always in the narrator's context (within the lore budget), triggers or not. */
  constant: z.boolean(),
  /** Lower is placed higher among the cards in the narrator's context. */
  insertion_order: z.number().int(),
  /** When the lore budget is full, lower priority is left out first. */
  priority: z.number().int(),
  case_sensitive: z.boolean(),
  /** Made from an imported Character Card (its card data is kept for export). */
  from_character_card: z.boolean(),
  /** The character card's notes for the player ("" when none); never sent to the narrator. */
  creator_notes: z.string(),
  /** The character's voice (GET /api/voices); null: one picked from its name when it speaks. */
  voice: z.string().nullable(),
  /** How readily the character speaks in a group scene's natural order, 0..1 (decision 0164). */
  talkativeness: z.number().optional(),
  /** What the character looks like now; kept after each turn from the narration, or by hand ("" when unknown). */
  appearance: z.string(),
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
  name: z.string().describe("Empty when the message names no one: the player names the card"),
  kind: z.enum(CARD_KINDS),
  triggers: z.array(z.string()),
  description: z.string(),
  /** The message's own picture, offered as the portrait (send its gallery_item_id to use it). */
  portrait: z.object({ gallery_item_id: z.string(), url: z.string() }).nullable(),
});
export type CardDraft = z.infer<typeof cardDraftSchema>;
export const cardDraftResponseSchema = z.object({ success: z.literal(true), draft: cardDraftSchema });
