// The turn core (main chat or story): charge first, ask the narrator (with the context: Memory, cards, recall,
// summary, the newest messages), then store both messages and queue the media job in one transaction. The
// HTTP answer goes back as soon as the story text exists. The charge runs through payFor: if anything before
// the commit fails, the whole charge is refunded, keyed by the answer's message id, so the turn has exactly
// one outcome.
import { randomUUID } from "node:crypto";
import type { ChatMode, ChatResponse } from "@storyverse/contract/chat";
import { HISTORY_WINDOW, MAX_INPUT_IMAGES } from "@storyverse/contract/chat";
import { DEFAULT_TEMPERATURE, OUTPUT_LENGTH_MAX_TOKENS } from "@storyverse/contract/generation-settings";
import { carryOn } from "@storyverse/contract/story-craft";
import type { AppContext } from "../context";
import { fromTenths, payFor, refundPaid, toTenths } from "../credits";
import type { Queryable } from "../db/client";
import type { PresentCharacter } from "../db/schema";
import { recordEvent } from "../events";
import { type CheckedInput, discardUploadedInputs, storeInputImages } from "../media";
import { NotFound, ProviderUnavailable, Stopped } from "../platform/errors";
import { metrics } from "../platform/metrics";
import { ProviderError, type ReferenceRole, type TextRequest } from "../providers/types";
import { activateCards, describeReason, triggerTexts } from "./card-activation";
import { generateMediaJob, mediaPartTenths } from "./media-job";
import {
  narrationFacts,
  narratorSystemPrompt,
  parseNarration,
  postHistoryInstructions,
  type RecalledExchange,
  type StorySetting,
  storyTextSplitter,
  type TurnCard,
  withNames,
} from "./narration";
import {
  assembleContext,
  CUT_MARK,
  type CutToBudget,
  countTextTokens,
  fitToTokens,
  INSTRUCTIONS_BUDGET_PERCENT,
  POST_HISTORY_BUDGET_PERCENT,
  STORY_CONTEXT_BUDGET_PERCENT,
} from "./narrator-context";
import {
  deleteMessagesAndVersions,
  insertMessage,
  lockConversation,
  type MessageRow,
  recentMessages,
  showVersion,
  undoneMessagesAndVersions,
} from "./repo";
import { shapedBy, withSceneOf } from "./shaped-by";
import type { StoryHooks } from "./story-hooks";
import { whileWriting } from "./turn-lock";
import { presentOf, wasPresent } from "./witness";

export type TurnInput = {
  userId: string;
  /** null for the main chat. */
  storyId: string | null;
  /** What a story's turn asks of the stories and recall modules; null for the main chat. */
  hooks: StoryHooks | null;
  story: StorySetting | null;
  prompt: string;
  mode: ChatMode;
  /** Reference images (image mode only), already checked to be the user's; uploads are stored once paid. */
  references: CheckedInput[];
};

export type TurnContext = Pick<
  AppContext,
  "db" | "clock" | "providers" | "jobs" | "log" | "storage" | "config" | "spendingCaps"
>;

export const chargeLabel = (mode: ChatMode) =>
  mode === "chat" ? "Chat" : mode === "image" ? "Story image" : "Story video";

/** What differs between a turn, a retry and a continue; the charge, the narrator and the commit are shared. */
export type TurnPlan = {
  /** The ledger text's subject (the player's words, or what the turn does). */
  label: string;
  /** What the narrator reads before its answer (oldest first) and the message it answers. */
  history: () => Promise<HistoryMessage[]>;
  prompt: string;
  /** A line added to the narrator's instructions (e.g. "write a different answer"). */
  direction?: string;
  /** Inside the commit's transaction, after the conversation is locked: checks and rows before the answer. */
  beforeAnswer: (tx: Queryable, at: Date) => Promise<void>;
  /** Version fields of the answer. */
  version?: { group: string; number: number };
  /**
   * A text-only answer that keeps the current version's scene (Retry "New words", Continue): its mode, scene
   * and media are copied onto the new version, which makes no media of its own.
   */
  keepScene?: Pick<
    MessageRow,
    "mode" | "sceneDescription" | "mediaStatus" | "mediaError" | "imageKey" | "videoKey" | "shapedBy"
  >;
  /** The words the answer carries on (Continue): the new version is these plus what the narrator adds. */
  carriesOn?: string;
  /** The prompt is the narrator's own instruction (Continue), sent as a system line, never as the player's. */
  promptIsInstruction?: boolean;
};

/**
 * What the narrator is sent for a turn: instructions, Memory, the active Story Cards, recent messages,
 * Author's Note and post-history instructions, in budget, with the story's names in place of the macros;
 * and the active cards themselves (the most recently mentioned first), each with why it fired.
 */
export function narratorContext(
  ctx: Pick<AppContext, "config">,
  story: StorySetting | null,
  history: HistoryMessage[],
  prompt: string,
  direction?: string,
  recalled: RecalledExchange[] = [],
) {
  const window = labelledBySpeaker(story, seenBy(story, history).slice(-HISTORY_WINDOW));
  const activation = activateCards(story?.cards ?? [], triggerTexts(prompt, window, story?.loreScanDepth));
  const active = activation.map((entry) => entry.card);
  // The story's long texts are stored whole and sent within their shares of the budget (decision 0142).
  const budget = ctx.config.narratorContextTokens;
  const cuts: CutToBudget[] = [];
  const withinBudget = (part: CutToBudget["part"], text: string, percent: number) => {
    const fitted = fitToTokens(text, Math.floor((budget * percent) / 100), countTextTokens);
    if (fitted.cut) {
      cuts.push({
        part,
        keptCharacters: fitted.text ? Array.from(fitted.text).length - CUT_MARK.length : 0,
        totalCharacters: Array.from(text).length,
      });
    }
    return fitted.text;
  };
  const sent = story && {
    ...story,
    context: withinBudget("context", story.context ?? "", STORY_CONTEXT_BUDGET_PERCENT),
    narratorInstructions: withinBudget(
      "instructions",
      story.narratorInstructions ?? "",
      INSTRUCTIONS_BUDGET_PERCENT,
    ),
    postHistoryInstructions: withinBudget(
      "post_history_instructions",
      story.postHistoryInstructions ?? "",
      POST_HISTORY_BUDGET_PERCENT,
    ),
    ...(story.teller
      ? {
          teller: {
            ...story.teller,
            description: withinBudget("instructions", story.teller.description, INSTRUCTIONS_BUDGET_PERCENT),
          },
        }
      : {}),
  };
  const lines = recalled.map((line) => ({
    ...line,
    player: withNames(line.player, story),
    narrator: withNames(line.narrator, story),
  }));
  const assembled = assembleContext({
    instructions: narratorSystemPrompt(sent, direction),
    memory: withNames(story?.memory ?? "", story),
    // A character teller's own card is in its instructions (decision 0154), not among the lore; its portrait
    // still paints.
    cards: active
      .filter(
        (card) =>
          card.id !== story?.teller?.cardId && !story?.group?.others.some((o) => o.cardId === card.id),
      )
      .map((card) => ({
        ...card,
        description: withNames(card.description, story, card.name, card.ownName),
      })),
    loreBudgetPercent: story?.loreBudgetPercent,
    recalled: lines,
    summary: story?.summary ?? "",
    history: window,
    authorsNote: story?.authorsNote ?? "",
    authorsNoteDepth: story?.generation?.authorsNoteDepth,
    postHistoryInstructions: postHistoryInstructions(sent),
    prompt,
    budget,
  });
  return {
    ...assembled,
    cut: [...cuts, ...assembled.cut],
    active,
    reasons: activation.map((entry) => entry.reason),
    recalled,
    facts: narrationFacts(sent, active, lines, assembled),
  };
}

/** A message of the recent window as the narrator's context reads it. */
type HistoryMessage = {
  role: "user" | "assistant";
  content: string;
  speaker?: { name: string } | null;
  present?: PresentCharacter[] | null;
};

/**
 * The window as a group's speaker knows it (decision 0165): in a story that keeps each character to what they
 * saw, only the messages they were present for; else all of it.
 */
const seenBy = (story: StorySetting | null, history: HistoryMessage[]) => {
  const witness = story?.group?.witness;
  return witness ? history.filter((message) => wasPresent(message.present, witness)) : history;
};

/**
 * A group scene's transcript (decision 0164): each line labelled by who said it (a narrator message by its
 * speaker's name, the player's by their persona's), so each character knows who said what. Else as it is.
 */
function labelledBySpeaker(
  story: StorySetting | null,
  history: HistoryMessage[],
): { role: "user" | "assistant"; content: string }[] {
  if (!story?.group) return history;
  const player = story.userName?.trim() || "Player";
  return history.map((message) => {
    const name = message.role === "user" ? player : message.speaker?.name;
    return name ? { ...message, content: `${name}: ${message.content}` } : message;
  });
}

/**
 * The older exchanges a turn recalls (recall.ts): searched for with the player's words, or with the newest
 * narrator message's for Continue, whose prompt is the narrator's own instruction. None for the main chat.
 */
async function recallFor(
  ctx: Pick<AppContext, "db" | "providers" | "log">,
  who: { userId: string; storyId: string | null; story: StorySetting | null; hooks: StoryHooks | null },
  words: string,
  history: HistoryMessage[],
  wordsAreInstruction = false,
): Promise<RecalledExchange[]> {
  if (!who.storyId || !who.hooks) return [];
  const searched = wordsAreInstruction
    ? (seenBy(who.story, history).findLast((m) => m.role === "assistant")?.content ?? "")
    : words;
  if (!searched.trim()) return [];
  // A group's speaker who knows only what they saw recalls only what they were present for (decision 0165).
  const witness = who.story?.group?.witness;
  return who.hooks.recall(ctx, { userId: who.userId, storyId: who.storyId }, searched, witness);
}

/** The story's art style and scene shape for its media job (none for the main chat). */
export const sceneSettings = (story: StorySetting | null) =>
  story?.generation
    ? {
        artStyle: story.generation.artStyle || undefined,
        aspectRatio: story.generation.aspectRatio,
        camera: story.camera || undefined,
      }
    : {};

/**
 * The storage keys a scene is painted from: the selected images first, then the active cards' reference
 * pictures (each card's portrait first, then its other views; decision 0161), then the portrait of the persona
 * the player plays (decision 0152), at most 10.
 */
export function sceneReferences(
  selected: string[],
  active: TurnCard[],
  playerPortrait?: string | null,
): string[] {
  const portraits = active.flatMap(
    (card) => card.referenceKeys ?? (card.portraitKey ? [card.portraitKey] : []),
  );
  const player = playerPortrait ? [playerPortrait] : [];
  return [...new Set([...selected, ...portraits, ...player])].slice(0, MAX_INPUT_IMAGES);
}

/**
 * Each scene reference's role (decision 0161): a selected image keeps the role the player gave it; the cards'
 * pictures and the persona's portrait are characters.
 */
export function sceneReferenceRoles(
  sceneKeys: string[],
  selected: string[],
  selectedRoles: (ReferenceRole | undefined)[],
): ReferenceRole[] {
  const roleOf = new Map<string, ReferenceRole>();
  selected.forEach((key, index) => {
    if (!roleOf.has(key)) roleOf.set(key, selectedRoles[index] ?? "content");
  });
  return sceneKeys.map((key) => roleOf.get(key) ?? "character");
}

/**
 * What the next turn would send the narrator (for "What the narrator sees"): the same assembly as a turn,
 * over the same history; without a prompt, what Continue would send, and why each active card fired. Also which active cards' portraits
 * the scene would be painted from, after the player's `selectedImages` (none in chat mode).
 */
export async function previewContext(
  ctx: Pick<AppContext, "db" | "config" | "providers" | "log">,
  userId: string,
  storyId: string,
  story: StorySetting,
  prompt: string | undefined,
  scene: { mode: ChatMode; selectedImages: number },
  hooks: StoryHooks,
) {
  const history = await recentMessages(ctx.db, userId, storyId, HISTORY_WINDOW);
  const who = { userId, storyId, story, hooks };
  const recalled = await recallFor(ctx, who, prompt ?? "", history, prompt === undefined);
  const assembled = narratorContext(ctx, story, history, prompt ?? CONTINUE_INSTRUCTION, undefined, recalled);
  // Continue sends its instruction as the narrator's own line, not as the player's.
  const context =
    prompt === undefined ? { ...assembled, messages: asInstruction(assembled.messages) } : assembled;
  const selected = scene.mode === "chat" ? 0 : Math.min(scene.selectedImages, MAX_INPUT_IMAGES);
  const portraits =
    scene.mode === "chat"
      ? []
      : context.active.filter((card) => card.portraitKey).slice(0, MAX_INPUT_IMAGES - selected);
  return { ...context, because: context.reasons.map(describeReason), selectedImages: selected, portraits };
}

/**
 * Streaming (Accept: text/event-stream): the story text is handed to `onText` as the narrator writes it, and
 * `stop` (the player's Stop, or the connection dropping) ends the turn where it is.
 */
export type TurnStreaming = {
  onText: (text: string) => void;
  stop: AbortSignal;
  /** A group scene (decision 0164): who speaks this turn, told before the first word. */
  onSpeaker?: (speaker: { card_id: string; name: string }) => void;
};

/** The player stopped the narrator before it wrote a word: nothing to keep, the whole turn is refunded. */
export class StoppedBeforeText extends Stopped {
  constructor() {
    super("The narrator was stopped before it wrote anything; nothing was charged.");
  }
}

/** The context's last message (the prompt's place) sent as a system line: the narrator's, not the player's. */
function asInstruction<T extends { role: string; content: string }>(messages: T[]): T[] {
  const last = messages.at(-1);
  return last ? [...messages.slice(0, -1), { ...last, role: "system" }] : messages;
}

/** The narrator's answer, whole or streamed; `stopped` when the player stopped it before it finished. */
async function narrate(
  ctx: TurnContext,
  who: { userId: string; storyId: string | null; hooks: StoryHooks | null },
  story: StorySetting | null,
  plan: TurnPlan,
  streaming: TurnStreaming | undefined,
): Promise<{
  answer: string;
  shown: string;
  stopped: boolean;
  active: TurnCard[];
  context: ReturnType<typeof narratorContext>;
}> {
  // Time to first word (the metrics) counts from here: the charge is taken, the narrator not yet asked.
  const askedAt = performance.now();
  const history = await plan.history();
  const recalled = await recallFor(ctx, { ...who, story }, plan.prompt, history, plan.promptIsInstruction);
  const context = narratorContext(ctx, story, history, plan.prompt, plan.direction, recalled);
  const { active } = context;
  const request: TextRequest = {
    purpose: plan.promptIsInstruction ? "continue" : "turn",
    ...context.facts,
    // A retry or a continue is another try at its answer, written anew.
    ...(plan.version ? { attempt: plan.version.number } : {}),
    messages: plan.promptIsInstruction ? asInstruction(context.messages) : context.messages,
    // The story's generation settings (stories/settings.ts); the main chat keeps the defaults.
    maxTokens: story?.generation?.maxTokens ?? OUTPUT_LENGTH_MAX_TOKENS.medium,
    temperature: story?.generation?.temperature ?? DEFAULT_TEMPERATURE,
    ...(story?.generation?.model ? { model: story.generation.model } : {}),
  };
  let answer = "";
  let shown = "";
  try {
    if (!streaming) {
      const whole = await ctx.providers.text.complete(request);
      return { answer: whole, shown: whole, stopped: false, active, context };
    }
    const { onText } = streaming;
    let spoke = false;
    const pass = storyTextSplitter((text) => {
      if (!spoke && text.trim()) {
        spoke = true;
        metrics.firstWord((performance.now() - askedAt) / 1000);
      }
      shown += text;
      onText(text);
    });
    for await (const piece of ctx.providers.text.stream({ ...request, signal: streaming.stop })) {
      answer += piece;
      pass(piece);
      if (streaming.stop.aborted) break;
    }
  } catch (error) {
    if (streaming?.stop.aborted) return { answer, shown, stopped: true, active, context };
    ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "narrator failed");
    throw new ProviderUnavailable(
      error instanceof ProviderError ? error.message : "The narrator could not answer. Please try again.",
    );
  }
  // The outcome is fixed here: a Stop that arrives after the last word finds a turn already delivered.
  return { answer, shown, stopped: streaming?.stop.aborted ?? false, active, context };
}

/** A turn's story was deleted before the turn could be stored. */
/**
 * What the narrator is told when the player asks it to carry on: a line of the narrator's own instructions
 * (never a player's message), sent after the story, whose newest narrator message it continues.
 */
export const CONTINUE_INSTRUCTION =
  "Continue your last answer from exactly where it stops, as the same narrator: if it stops mid-sentence, " +
  "finish that sentence first; do not repeat or summarise what is already written; then write on for a " +
  "paragraph or two. Write only the words that come next.";

/**
 * Deletes for good what was undone and not redone (the next turn ends Redo), in the caller's transaction that
 * holds the conversation lock. Their media stay in the gallery, as when a story is deleted; a scene still
 * being made for one of them is refunded and its job cancelled.
 */
export async function forgetUndone(
  ctx: Pick<AppContext, "clock" | "log" | "jobs">,
  tx: Queryable,
  userId: string,
  storyId: string | null,
): Promise<void> {
  const rows = await undoneMessagesAndVersions(tx, userId, storyId);
  if (rows.length === 0) return;
  for (const message of rows.filter((row) => row.mediaStatus === "pending")) {
    await refundPaid(
      { ...ctx, db: tx },
      message,
      mediaPartTenths(message),
      message.id,
      "Refund: the undone turn was dropped before its media was ready",
    );
    await ctx.jobs.cancel(generateMediaJob, message.id, { tx });
  }
  await deleteMessagesAndVersions(
    tx,
    userId,
    rows.map((row) => row.id),
  );
}

export const STORY_DELETED_DETAIL =
  "This story was deleted while the narrator was writing; nothing was kept or charged.";

/** PostgreSQL's foreign_key_violation, on the error or (Drizzle wraps the driver's) its causes. */
export function isForeignKeyViolation(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if ((current as { code?: unknown }).code === "23503") return true;
    current = current.cause;
  }
  return false;
}

/** The turn core: charge, ask the narrator, then commit the answer and its media job together. */
export async function runTurn(
  ctx: TurnContext,
  input: Omit<TurnInput, "prompt">,
  plan: TurnPlan,
  streaming?: TurnStreaming,
) {
  // The answer's id is fixed up front: the job and any refund are keyed by it.
  const assistantId = randomUUID();
  const { result, paid, refundedTenths } = await whileWriting(ctx, input.userId, input.storyId, () =>
    payFor(
      ctx,
      {
        userId: input.userId,
        kind: input.mode,
        quantity: 1,
        description: `${chargeLabel(input.mode)}: ${plan.label.slice(0, 80)}`,
        paidFor: assistantId,
        refundDescription: "Refund: the turn could not be completed",
      },
      async (charged, settle) => {
        const referenceKeys = await storeInputImages(ctx, input.userId, input.references);
        try {
          const { answer, shown, stopped, active, context } = await narrate(
            ctx,
            input,
            input.story,
            plan,
            streaming,
          );
          // A stopped turn keeps exactly the words the player saw.
          const { storyText, scene } = stopped
            ? { storyText: shown.trim(), scene: null }
            : parseNarration(answer);
          if (!storyText && stopped) throw new StoppedBeforeText();
          // A stopped turn keeps its text, is charged the text's price only and makes no media.
          const wantsMedia = input.mode !== "chat" && !stopped;
          const undeliveredTenths = stopped ? mediaPartTenths(charged) : 0;
          const userAt = ctx.clock.now();
          // The answer is stamped a millisecond later so ordering by time never puts it before its question.
          const answerAt = new Date(userAt.getTime() + 1);
          // The scene is painted from the selected images, then the active cards' portraits.
          const sceneKeys = wantsMedia
            ? sceneReferences(
                referenceKeys,
                // A group scene's present characters first, the speaker first (decision 0164).
                [...(input.story?.group?.present ?? []), ...active],
                input.story?.player?.portraitKey,
              )
            : [];
          const kept = plan.keepScene;
          // A story's answer records what shaped it; a kept scene keeps what it was painted from.
          const words = input.storyId ? shapedBy(active, context, sceneKeys) : null;
          const shaped = words && kept && !wantsMedia ? withSceneOf(words, kept.shapedBy) : words;
          // The answer and its job commit together: no message waits for a job that was never queued.
          if (wantsMedia) await ctx.jobs.ready(generateMediaJob);
          await ctx.db
            .transaction(async (tx) => {
              await lockConversation(tx, input.userId, input.storyId);
              await plan.beforeAnswer(tx, userAt);
              // Anything new written in the story ends Redo: what was undone is gone for good.
              await forgetUndone(ctx, tx, input.userId, input.storyId);
              await settle(tx, undeliveredTenths);
              await insertMessage(tx, {
                id: assistantId,
                userId: input.userId,
                storyId: input.storyId,
                role: "assistant",
                content: plan.carriesOn === undefined ? storyText : carryOn(plan.carriesOn, storyText),
                mode: kept ? kept.mode : input.mode,
                sceneDescription: kept ? kept.sceneDescription : scene,
                ...(kept && !wantsMedia
                  ? {
                      mediaStatus: kept.mediaStatus,
                      mediaError: kept.mediaError,
                      imageKey: kept.imageKey,
                      videoKey: kept.videoKey,
                    }
                  : { mediaStatus: wantsMedia ? ("pending" as const) : ("none" as const) }),
                chargedTenths: charged.chargedTenths - undeliveredTenths,
                referenceKeys: sceneKeys,
                shapedBy: shaped,
                speaker: speakerOf(input.story),
                present: presentOf(input.story),
                stopped,
                versionGroup: plan.version?.group ?? null,
                versionNumber: plan.version?.number ?? 1,
                createdAt: answerAt,
                updatedAt: answerAt,
              });
              if (plan.version) await showVersion(tx, plan.version.group, assistantId, answerAt);
              if (input.storyId) {
                // The story list's order (decision 0134): kept by the stories module, in this transaction.
                await input.hooks?.played(tx, input.userId, input.storyId, answerAt);
                await recordEvent(tx, {
                  userId: input.userId,
                  kind: "story",
                  subjectId: input.storyId,
                  at: answerAt,
                });
              }
              if (wantsMedia) {
                // The job writes the scene prompt from the finished answer: the turn ends with the prose.
                await ctx.jobs.send(
                  generateMediaJob,
                  {
                    messageId: assistantId,
                    storyTitle: input.story?.title ?? null,
                    storyContext: input.story?.context ?? null,
                    // The player's words (none when the prompt is the narrator's own instruction).
                    prompt: plan.promptIsInstruction ? "" : plan.prompt,
                    ...sceneSettings(input.story),
                    roles: sceneReferenceRoles(
                      sceneKeys,
                      referenceKeys,
                      input.references.map((reference) => reference.role),
                    ),
                  },
                  { id: assistantId, tx },
                );
              }
            })
            .catch((error: unknown) => {
              // The story was deleted while the narrator wrote (its delete holds the conversation lock, so
              // it either saw this turn committed or committed first): nothing is stored, all is refunded.
              if (input.storyId && isForeignKeyViolation(error)) throw new NotFound(STORY_DELETED_DETAIL);
              throw error;
            });
          // Uploads only serve the media job; a stopped turn has none.
          if (!wantsMedia) {
            await discardUploadedInputs(ctx, referenceKeys).catch((error: Error) => {
              ctx.log.warn({ err: error }, "uploads of a stopped turn could not be removed");
            });
          }
          return {
            result: { storyText, wantsMedia, stopped, shaped },
            undeliveredTenths,
            refundDescription: "Refund: the narrator was stopped before the media",
          };
        } catch (error) {
          await discardUploadedInputs(ctx, referenceKeys);
          throw error;
        }
      },
    ),
  );
  // Indexing for recall by meaning runs in the background: never on the turn's path, never charged.
  if (input.storyId) void input.hooks?.index(ctx, input.userId, input.storyId);
  // What a stopped turn gave back shows in the balance it reports.
  const quotaInfo = paid.quotaInfo.unlimited
    ? paid.quotaInfo
    : {
        ...paid.quotaInfo,
        remaining: fromTenths(toTenths(paid.quotaInfo.remaining) + refundedTenths),
        charged: fromTenths(paid.chargedTenths - refundedTenths),
      };
  return {
    success: true as const,
    quota_exceeded: false as const,
    // Continue answers the whole grown message; the stream carried only the added words.
    story_text: plan.carriesOn === undefined ? result.storyText : carryOn(plan.carriesOn, result.storyText),
    message_id: assistantId,
    media_generation: {
      status: result.wantsMedia ? ("started" as const) : ("none" as const),
      type: result.wantsMedia ? (input.mode as "image" | "video") : null,
    },
    quota_info: quotaInfo,
    ...(result.stopped ? { stopped: true } : {}),
    ...(result.shaped ? { shaped_by: result.shaped } : {}),
    speaker: speakerOf(input.story),
  };
}

/** Who speaks a story's answer (decision 0154): the card a character teller plays; null: the narrator. */
const speakerOf = (story: StorySetting | null) =>
  story?.teller ? { card_id: story.teller.cardId, name: story.teller.name } : null;

export async function sendTurn(
  ctx: TurnContext,
  input: TurnInput,
  streaming?: TurnStreaming,
): Promise<ChatResponse> {
  const userMessageId = randomUUID();
  const answer = await runTurn(
    ctx,
    input,
    {
      label: input.prompt,
      prompt: input.prompt,
      history: () => recentMessages(ctx.db, input.userId, input.storyId, HISTORY_WINDOW),
      beforeAnswer: async (tx, at) => {
        await insertMessage(tx, {
          id: userMessageId,
          userId: input.userId,
          storyId: input.storyId,
          role: "user",
          content: input.prompt,
          mode: input.mode,
          // Who heard the player's line (decision 0165): the same characters as the answer's.
          present: presentOf(input.story),
          createdAt: at,
          updatedAt: at,
        });
      },
    },
    streaming,
  );
  return { ...answer, user_message_id: userMessageId };
}
