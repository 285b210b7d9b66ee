// "Make a card": the text provider drafts a Story Card from one narrator message. Nothing is saved; the
// player reviews the draft in the card editor and saves it (POST .../cards). A vendor's answer is only a
// suggestion: it is cut to the card limits here, so the editor never opens with a draft it would refuse.
// A draft may have no name (the message names no one: the player gives one), and offers the message's own
// picture, as its gallery item, for the portrait.
import {
  CARD_DESCRIPTION_MAX_LENGTH,
  CARD_KINDS,
  CARD_NAME_MAX_LENGTH,
  CARD_TRIGGER_MAX_LENGTH,
  CARD_TRIGGERS_MAX,
  type CardDraft,
  type CardKind,
} from "@storyverse/contract/story-cards";
import type { AppContext } from "../context";
import { storyMessageText } from "../conversation";
import { ownedImageByKey } from "../media";
import { NotFound, ProviderUnavailable } from "../platform/errors";
import { ProviderError } from "../providers/types";
import { cleanTriggers } from "./card-rules";
import { storyCards } from "./cards";

export const CARD_DRAFT_FAILED_DETAIL =
  "The narrator could not draft a card from this message. Please try again.";

/** What the drafter is told (a vendor model reads it; the offline provider goes by the request's data). */
export function cardDrafterInstructions(title: string, existingNames: string[]): string {
  return [
    "Role: card drafter.",
    "From the story passage the user sends, pick the one character, place or thing most worth remembering",
    "that is not already a card, and answer with JSON only, no prose:",
    '{"name": "...", "kind": "character|place|thing|other", "triggers": ["words that mention it"],',
    '"description": "what it looks like and who or what it is, in one to three sentences"}',
    `Story title: ${title}`,
    `Existing cards: ${existingNames.join(", ") || "none"}`,
  ].join("\n");
}

const clip = (text: unknown, max: number) =>
  typeof text === "string" ? text.replace(/\s+/g, " ").trim().slice(0, max).trim() : "";

type DraftedCard = Omit<CardDraft, "portrait">;

/**
 * The draft inside a model's answer (JSON, perhaps fenced or with words around it), within the card limits.
 * Without a name it is still a draft if it describes something (the player names it); its triggers then
 * wait for the name.
 */
export function readDraft(answer: string): DraftedCard | null {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(answer.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const name = clip(raw.name, CARD_NAME_MAX_LENGTH);
  const description = clip(raw.description, CARD_DESCRIPTION_MAX_LENGTH);
  if (!name && !description) return null;
  const kind = (CARD_KINDS as readonly string[]).includes(String(raw.kind))
    ? (raw.kind as CardKind)
    : "other";
  const triggers = cleanTriggers(
    (Array.isArray(raw.triggers) ? raw.triggers : []).map((value) => clip(value, CARD_TRIGGER_MAX_LENGTH)),
  );
  if (triggers.length === 0 && name) triggers.push(clip(name, CARD_TRIGGER_MAX_LENGTH));
  return { name, kind, triggers: triggers.slice(0, CARD_TRIGGERS_MAX), description };
}

export async function draftCardFromMessage(
  ctx: Pick<AppContext, "db" | "clock" | "storage" | "providers" | "log">,
  userId: string,
  story: { id: string; title: string },
  messageId: string,
): Promise<CardDraft> {
  const message = await storyMessageText(ctx, userId, story.id, messageId);
  if (message?.role !== "assistant" || !message.content.trim()) {
    throw new NotFound("Message not found");
  }
  const existing = (await storyCards(ctx, userId, story.id)).map((card) => card.name);
  let answer: string;
  try {
    answer = await ctx.providers.text.complete({
      purpose: "card-draft",
      storyTitle: story.title,
      existingCards: existing,
      passage: message.content,
      messages: [
        { role: "system", content: cardDrafterInstructions(story.title, existing) },
        { role: "user", content: message.content },
      ],
      maxTokens: 400,
      temperature: 0.4,
    });
  } catch (error) {
    ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "card draft failed");
    throw new ProviderUnavailable(error instanceof ProviderError ? error.message : CARD_DRAFT_FAILED_DETAIL);
  }
  const draft = readDraft(answer);
  if (!draft) throw new ProviderUnavailable(CARD_DRAFT_FAILED_DETAIL);
  return { ...draft, portrait: message.imageKey ? await scenePortrait(ctx, userId, message.imageKey) : null };
}

/** The message's picture as a gallery item to offer as the portrait (null if it has left the gallery). */
async function scenePortrait(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  imageKey: string,
): Promise<CardDraft["portrait"]> {
  const item = await ownedImageByKey(ctx, userId, imageKey);
  if (!item) return null;
  return { gallery_item_id: item.id, url: await ctx.storage.signedUrl(item.thumbnailKey ?? item.key) };
}
