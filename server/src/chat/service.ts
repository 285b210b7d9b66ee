// A chat turn (main chat or story): charge first, ask the narrator, then store both messages and queue the
// media job in one transaction. The HTTP answer goes back as soon as the story text exists. The charge
// runs through payFor: if anything before the commit fails, the whole charge is refunded, keyed by the
// answer's message id, so the turn has exactly one outcome.
import { randomUUID } from "node:crypto";
import type { ChatMessage, ChatMode, ChatResponse, MediaStatus } from "@storyverse/contract/chat";
import { HISTORY_WINDOW, MAX_INPUT_IMAGES, MEDIA_TIMED_OUT_MESSAGE } from "@storyverse/contract/chat";
import type { MediaEvent } from "@storyverse/contract/events";
import { DEFAULT_TEMPERATURE, OUTPUT_LENGTH_MAX_TOKENS } from "@storyverse/contract/generation-settings";
import {
  carryOn,
  NEWEST_ONLY_DETAIL,
  NOTHING_TO_CONTINUE_DETAIL,
  NOTHING_TO_REDO_DETAIL,
  NOTHING_TO_UNDO_DETAIL,
  type RetryWhat,
  SCENE_NEEDS_MEDIA_DETAIL,
  STILL_PAINTING_DETAIL,
  STILL_WRITING_DETAIL,
} from "@storyverse/contract/story-craft";
import type { AppContext } from "../context";
import { payFor, refundPaid } from "../credits/paid-work";
import { fromTenths, toTenths } from "../credits/service";
import type { Queryable } from "../db/client";
import { recordEvent } from "../events/service";
import { type CheckedInput, discardUploadedInputs, storeInputImages } from "../media/inputs";
import { urlFor } from "../media/service";
import { Conflict, InvalidInput, NotFound, ProviderFailed, Stopped } from "../platform/errors";
import { ProviderError } from "../providers/types";
import { activateCards, describeReason, triggerTexts } from "./card-activation";
import { queueEmbeddings } from "./embed-job";
import { failMedia, generateMediaJob, mediaDeadline, mediaPartTenths } from "./media-job";
import {
  narratorSystemPrompt,
  parseNarration,
  postHistoryInstructions,
  type StorySetting,
  storyTextSplitter,
  type TurnCard,
  withNames,
} from "./narration";
import { assembleContext } from "./narrator-context";
import { markRecall, type RecalledExchange, recallExchanges, recallMarkOf } from "./recall";
import { meaningOf } from "./recall-vectors";
import {
  allMessages,
  allStoriesConversationStats,
  countMessagesThrough,
  deleteConversation,
  deleteMessagesAndVersions,
  findMessage,
  hideAsUndone,
  insertMessage,
  lockConversation,
  type MessageRow,
  pendingMessagesOfStory,
  recentMessages,
  showNewestUndone,
  showVersion,
  startVersionGroup,
  storyConversationStats,
  undoneExchangeCount,
  undoneMessagesAndVersions,
  updateContent,
  versionCounts,
  versionsOf,
} from "./repo";
import { shapedBy, withSceneOf } from "./shaped-by";

export class ProviderUnavailable extends ProviderFailed {}

export type TurnInput = {
  userId: string;
  /** null for the main chat. */
  storyId: string | null;
  story: StorySetting | null;
  prompt: string;
  mode: ChatMode;
  /** Reference images (image mode only), already checked to be the user's; uploads are stored once paid. */
  references: CheckedInput[];
};

type TurnContext = Pick<AppContext, "db" | "clock" | "providers" | "jobs" | "log" | "storage" | "config">;

const chargeLabel = (mode: ChatMode) =>
  mode === "chat" ? "Chat" : mode === "image" ? "Story image" : "Story video";

/** Conversations with a turn being written in this process: Retry, Continue and Undo wait for it. */
const turnsInFlight = new Map<string, number>();
const conversationKey = (userId: string, storyId: string | null) => `${userId}:${storyId ?? "main"}`;

async function whileWriting<T>(userId: string, storyId: string | null, work: () => Promise<T>): Promise<T> {
  const key = conversationKey(userId, storyId);
  turnsInFlight.set(key, (turnsInFlight.get(key) ?? 0) + 1);
  try {
    return await work();
  } finally {
    const left = (turnsInFlight.get(key) ?? 1) - 1;
    if (left <= 0) turnsInFlight.delete(key);
    else turnsInFlight.set(key, left);
  }
}

/** What differs between a turn, a retry and a continue; the charge, the narrator and the commit are shared. */
type TurnPlan = {
  /** The ledger text's subject (the player's words, or what the turn does). */
  label: string;
  /** What the narrator reads before its answer (oldest first) and the message it answers. */
  history: () => Promise<{ role: "user" | "assistant"; content: string }[]>;
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
function narratorContext(
  ctx: Pick<AppContext, "config">,
  story: StorySetting | null,
  history: { role: "user" | "assistant"; content: string }[],
  prompt: string,
  direction?: string,
  recalled: RecalledExchange[] = [],
) {
  const window = history.slice(-HISTORY_WINDOW);
  const activation = activateCards(story?.cards ?? [], triggerTexts(prompt, window, story?.loreScanDepth));
  const active = activation.map((entry) => entry.card);
  const assembled = assembleContext({
    instructions: narratorSystemPrompt(story, direction),
    memory: withNames(story?.memory ?? "", story),
    cards: active.map((card) => ({
      ...card,
      description: withNames(card.description, story, card.name, card.ownName),
    })),
    loreBudgetPercent: story?.loreBudgetPercent,
    recalled: recalled.map((line) => ({
      ...line,
      player: withNames(line.player, story),
      narrator: withNames(line.narrator, story),
    })),
    summary: story?.summary ?? "",
    history: window,
    authorsNote: story?.authorsNote ?? "",
    authorsNoteDepth: story?.generation?.authorsNoteDepth,
    postHistoryInstructions: postHistoryInstructions(story),
    prompt,
    budget: ctx.config.narratorContextTokens,
  });
  return { ...assembled, active, reasons: activation.map((entry) => entry.reason), recalled };
}

/**
 * The older exchanges a turn recalls (recall.ts): searched for with the player's words, or with the newest
 * narrator message's for Continue, whose prompt is the narrator's own instruction. None for the main chat.
 */
async function recallFor(
  ctx: Pick<AppContext, "db" | "providers" | "log">,
  userId: string,
  storyId: string | null,
  words: string,
  history: { role: "user" | "assistant"; content: string }[],
  wordsAreInstruction = false,
): Promise<RecalledExchange[]> {
  if (!storyId) return [];
  const searched = wordsAreInstruction
    ? (history.findLast((m) => m.role === "assistant")?.content ?? "")
    : words;
  if (!searched.trim()) return [];
  return recallExchanges(ctx.db, userId, storyId, searched, undefined, await meaningOf(ctx, searched));
}

/** The story's art style and scene shape for its media job (none for the main chat). */
const sceneSettings = (story: StorySetting | null) =>
  story?.generation
    ? {
        artStyle: story.generation.artStyle || undefined,
        aspectRatio: story.generation.aspectRatio,
        camera: story.camera || undefined,
      }
    : {};

/** The storage keys a scene is painted from: the selected images first, then portraits, at most 10. */
function sceneReferences(selected: string[], active: TurnCard[]): string[] {
  const portraits = active.flatMap((card) => (card.portraitKey ? [card.portraitKey] : []));
  return [...new Set([...selected, ...portraits])].slice(0, MAX_INPUT_IMAGES);
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
) {
  const history = await recentMessages(ctx.db, userId, storyId, HISTORY_WINDOW);
  const recalled = await recallFor(ctx, userId, storyId, prompt ?? "", history, prompt === undefined);
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
export type TurnStreaming = { onText: (text: string) => void; stop: AbortSignal };

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
  who: { userId: string; storyId: string | null },
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
  const history = await plan.history();
  const recalled = await recallFor(
    ctx,
    who.userId,
    who.storyId,
    plan.prompt,
    history,
    plan.promptIsInstruction,
  );
  const context = narratorContext(ctx, story, history, plan.prompt, plan.direction, recalled);
  const { active } = context;
  const request = {
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
    const pass = storyTextSplitter((text) => {
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
export const STORY_DELETED_DETAIL =
  "This story was deleted while the narrator was writing; nothing was kept or charged.";

/** PostgreSQL's foreign_key_violation, on the error or (Drizzle wraps the driver's) its causes. */
function isForeignKeyViolation(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if ((current as { code?: unknown }).code === "23503") return true;
    current = current.cause;
  }
  return false;
}

/** The turn core: charge, ask the narrator, then commit the answer and its media job together. */
async function runTurn(
  ctx: TurnContext,
  input: Omit<TurnInput, "prompt">,
  plan: TurnPlan,
  streaming?: TurnStreaming,
) {
  // The answer's id is fixed up front: the job and any refund are keyed by it.
  const assistantId = randomUUID();
  const { result, paid, refundedTenths } = await whileWriting(input.userId, input.storyId, () =>
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
          const sceneKeys = wantsMedia ? sceneReferences(referenceKeys, active) : [];
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
                stopped,
                versionGroup: plan.version?.group ?? null,
                versionNumber: plan.version?.number ?? 1,
                createdAt: answerAt,
                updatedAt: answerAt,
              });
              if (plan.version) await showVersion(tx, plan.version.group, assistantId, answerAt);
              if (input.storyId) {
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
  void queueEmbeddings(ctx, input.userId, input.storyId);
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
  };
}

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
          createdAt: at,
          updatedAt: at,
        });
      },
    },
    streaming,
  );
  return { ...answer, user_message_id: userMessageId };
}

// --- story craft: retry, continue, undo, edit, versions ---------------------------------------------------

/** The newest exchange of a conversation: the newest message and, if it answers a player's message, that. */
type Exchange = { answer: MessageRow; question: MessageRow | null; before: MessageRow[] };

function newestExchange(shown: MessageRow[]): Exchange | null {
  const answer = shown.at(-1);
  if (!answer) return null;
  if (answer.role === "user") return { answer, question: null, before: shown.slice(0, -1) };
  const previous = shown.at(-2);
  return previous?.role === "user"
    ? { answer, question: previous, before: shown.slice(0, -2) }
    : { answer, question: null, before: shown.slice(0, -1) };
}

/** Retry, Continue and Undo act on the newest exchange only once it is finished. */
function assertSettled(userId: string, storyId: string | null, newest: MessageRow | undefined) {
  if (turnsInFlight.has(conversationKey(userId, storyId))) throw new Conflict(STILL_WRITING_DETAIL);
  if (newest?.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL);
}

/** Inside the commit: the newest shown message must still be the one the request was based on. */
async function assertNewestIs(
  tx: Queryable,
  userId: string,
  storyId: string | null,
  expected: (newest: MessageRow | undefined) => boolean,
) {
  const [newest] = await recentMessages(tx, userId, storyId, 1);
  if (newest?.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL);
  if (!expected(newest)) throw new Conflict(STILL_WRITING_DETAIL);
}

const groupOf = (row: Pick<MessageRow, "id" | "versionGroup">) => row.versionGroup ?? row.id;

/**
 * What the narrator is told when the player asks it to carry on: a line of the narrator's own instructions
 * (never a player's message), sent after the story, whose newest narrator message it continues.
 */
export const CONTINUE_INSTRUCTION =
  "Continue your last answer from exactly where it stops, as the same narrator: if it stops mid-sentence, " +
  "finish that sentence first; do not repeat or summarise what is already written; then write on for a " +
  "paragraph or two. Write only the words that come next.";

export type CraftInput = {
  userId: string;
  storyId: string;
  story: StorySetting;
  /** The mode asked for; a retry without one keeps the retried answer's mode. */
  mode: ChatMode | undefined;
  references: CheckedInput[];
};

/** The mode a retry of this message would use (the one it asked for, else the retried answer's). */
export async function retryMode(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  messageId: string,
  asked: ChatMode | undefined,
): Promise<ChatMode> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row || row.undoStep !== null) throw new NotFound("Message not found");
  return asked ?? row.mode ?? "image";
}

/**
 * A new version of the newest narrator answer, to the same player message; earlier versions are kept.
 * `what`: "both" (new words and a new scene, priced as the mode), "text" (new words keeping the shown
 * version's scene, priced as a chat turn) or "media" (a new scene for the same words, priced as the
 * picture or clip it makes).
 */
export async function retryTurn(
  ctx: TurnContext,
  input: CraftInput & { messageId: string; what?: RetryWhat },
  streaming?: TurnStreaming,
): Promise<ChatResponse> {
  const what = input.what ?? "both";
  const target = await findMessage(ctx.db, input.userId, input.storyId, input.messageId);
  if (!target || target.undoStep !== null) throw new NotFound("Message not found");
  if (target.role !== "assistant") throw new InvalidInput("Only the narrator's answers can be retried.");
  const group = groupOf(target);
  const shown = await allMessages(ctx.db, input.userId, input.storyId);
  const exchange = newestExchange(shown);
  if (!exchange || groupOf(exchange.answer) !== group) throw new Conflict(NEWEST_ONLY_DETAIL);
  assertSettled(input.userId, input.storyId, exchange.answer);
  const versions = await versionsOf(ctx.db, input.userId, group);
  const number = Math.max(...versions.map((v) => v.versionNumber)) + 1;
  const prompt = exchange.question?.content ?? CONTINUE_INSTRUCTION;
  const stillNewest = async (tx: Queryable) => {
    await assertNewestIs(tx, input.userId, input.storyId, (newest) => !!newest && groupOf(newest) === group);
    const taken = await versionsOf(tx, input.userId, group);
    if (taken.length !== versions.length) throw new Conflict(STILL_WRITING_DETAIL);
    await startVersionGroup(tx, group);
  };
  if (what === "media") {
    const mode = input.mode ?? exchange.answer.mode ?? "image";
    if (mode === "chat") throw new InvalidInput(SCENE_NEEDS_MEDIA_DETAIL);
    return repaintTurn(ctx, { ...input, mode }, exchange, prompt, { group, number }, stillNewest);
  }
  return runTurn(
    ctx,
    // New words only: priced and written as a chat turn, the scene kept from the shown version.
    { ...input, mode: what === "text" ? "chat" : (input.mode ?? target.mode ?? "image") },
    {
      label: `retry of "${prompt}"`,
      prompt,
      direction: `This is attempt ${number} at this answer: write a different one than before.`,
      history: async () => exchange.before.slice(-HISTORY_WINDOW),
      beforeAnswer: stillNewest,
      version: { group, number },
      ...(what === "text" ? { keepScene: exchange.answer } : {}),
    },
    streaming,
  );
}

/**
 * Retry "New scene": the same words as a new version with a new picture (or clip), priced as what it makes.
 * No narrator: the charge, the new version and its media job commit together, or the charge goes back.
 */
async function repaintTurn(
  ctx: TurnContext,
  input: CraftInput & { mode: "image" | "video" },
  exchange: Exchange,
  prompt: string,
  version: { group: string; number: number },
  stillNewest: (tx: Queryable) => Promise<void>,
): Promise<ChatResponse> {
  const current = exchange.answer;
  const assistantId = randomUUID();
  const { active } = narratorContext(ctx, input.story, exchange.before.slice(-HISTORY_WINDOW), prompt);
  const { paid, result: shaped } = await whileWriting(input.userId, input.storyId, () =>
    payFor(
      ctx,
      {
        userId: input.userId,
        kind: input.mode,
        quantity: 1,
        description: `${chargeLabel(input.mode)}: new scene for "${prompt.slice(0, 60)}"`,
        paidFor: assistantId,
        refundDescription: "Refund: the new scene could not be started",
      },
      async (charged, settle) => {
        const referenceKeys = await storeInputImages(ctx, input.userId, input.references);
        try {
          await ctx.jobs.ready(generateMediaJob);
          const at = ctx.clock.now();
          // The same scene line would paint the same picture: the take number asks for another one.
          const base = current.sceneDescription ?? current.content.slice(0, 500);
          const sceneKeys = sceneReferences(referenceKeys, active);
          // The same words, so what shaped them; the new picture's references (no card text went to a painter).
          const scene = shapedBy(active, { parts: [], keptCardIds: [] }, sceneKeys);
          const shaped = current.shapedBy ? withSceneOf(current.shapedBy, scene) : null;
          await ctx.db
            .transaction(async (tx) => {
              await lockConversation(tx, input.userId, input.storyId);
              await stillNewest(tx);
              await forgetUndone(ctx, tx, input.userId, input.storyId);
              await settle(tx, 0);
              await insertMessage(tx, {
                id: assistantId,
                userId: input.userId,
                storyId: input.storyId,
                role: "assistant",
                content: current.content,
                mode: input.mode,
                sceneDescription: `${base}\n(Take ${version.number}: a different composition of this scene.)`,
                mediaStatus: "pending",
                chargedTenths: charged.chargedTenths,
                referenceKeys: sceneKeys,
                shapedBy: shaped,
                sceneOnly: true,
                stopped: current.stopped,
                versionGroup: version.group,
                versionNumber: version.number,
                createdAt: at,
                updatedAt: at,
              });
              await showVersion(tx, version.group, assistantId, at);
              await recordEvent(tx, { userId: input.userId, kind: "story", subjectId: input.storyId, at });
              await ctx.jobs.send(
                generateMediaJob,
                {
                  messageId: assistantId,
                  storyTitle: input.story.title ?? null,
                  ...sceneSettings(input.story),
                },
                { id: assistantId, tx },
              );
            })
            .catch((error: unknown) => {
              if (isForeignKeyViolation(error)) throw new NotFound(STORY_DELETED_DETAIL);
              throw error;
            });
          return { result: shaped, undeliveredTenths: 0 };
        } catch (error) {
          await discardUploadedInputs(ctx, referenceKeys);
          throw error;
        }
      },
    ),
  );
  return {
    success: true as const,
    quota_exceeded: false as const,
    story_text: current.content,
    message_id: assistantId,
    media_generation: { status: "started" as const, type: input.mode },
    quota_info: paid.quotaInfo,
    ...(shaped ? { shaped_by: shaped } : {}),
  };
}

/**
 * Continue in place: the narrator carries on its newest message (a stopped sentence is finished), written as a
 * new version of that message that keeps its scene; priced as a chat turn, no media made, no player line.
 */
export async function continueTurn(
  ctx: TurnContext,
  input: Omit<CraftInput, "mode">,
  streaming?: TurnStreaming,
): Promise<ChatResponse> {
  const shown = await allMessages(ctx.db, input.userId, input.storyId);
  const newest = shown.at(-1);
  assertSettled(input.userId, input.storyId, newest);
  if (newest?.role !== "assistant") throw new Conflict(NOTHING_TO_CONTINUE_DETAIL);
  const group = groupOf(newest);
  const versions = await versionsOf(ctx.db, input.userId, group);
  const number = Math.max(...versions.map((v) => v.versionNumber)) + 1;
  return runTurn(
    ctx,
    { ...input, mode: "chat", references: [] },
    {
      label: "continue the story",
      prompt: CONTINUE_INSTRUCTION,
      promptIsInstruction: true,
      // The narrator reads its own message as written so far, then the instruction to carry it on.
      history: async () => shown.slice(-HISTORY_WINDOW),
      beforeAnswer: async (tx) => {
        await assertNewestIs(tx, input.userId, input.storyId, (now) => now?.id === newest.id);
        const taken = await versionsOf(tx, input.userId, group);
        if (taken.length !== versions.length) throw new Conflict(STILL_WRITING_DETAIL);
        await startVersionGroup(tx, group);
      },
      version: { group, number },
      keepScene: newest,
      carriesOn: newest.content,
    },
    streaming,
  );
}

/**
 * Takes the newest exchange (the player's message and the shown version of its answer) out of the story,
 * hidden on the story's Redo stack with every version of the answer, until Redo or the next turn.
 */
export async function undoExchange(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string,
): Promise<string[]> {
  const exchange = newestExchange(await allMessages(ctx.db, userId, storyId));
  if (!exchange) throw new Conflict(NOTHING_TO_UNDO_DETAIL);
  assertSettled(userId, storyId, exchange.answer);
  const ids = [exchange.question?.id, exchange.answer.id].filter((id): id is string => !!id);
  const removed = [...ids];
  await ctx.db.transaction(async (tx) => {
    await lockConversation(tx, userId, storyId);
    await assertNewestIs(tx, userId, storyId, (newest) => newest?.id === exchange.answer.id);
    const versions = await versionsOf(tx, userId, groupOf(exchange.answer));
    for (const version of versions) if (!removed.includes(version.id)) removed.push(version.id);
    await hideAsUndone(tx, userId, storyId, ids, ctx.clock.now());
  });
  return removed;
}

/** How many undone exchanges Redo can bring back (the stack outlives a reload; a new turn empties it). */
export function redoableExchanges(ctx: TurnContext, userId: string, storyId: string | null): Promise<number> {
  return undoneExchangeCount(ctx.db, userId, storyId);
}

/** Brings back the most recently undone exchange, with its versions and media; 409 when nothing is undone. */
export async function redoExchange(
  ctx: Pick<AppContext, "db" | "clock" | "storage">,
  userId: string,
  storyId: string,
): Promise<ChatMessage[]> {
  assertSettled(userId, storyId, undefined);
  const restored = await ctx.db.transaction(async (tx) => {
    await lockConversation(tx, userId, storyId);
    return showNewestUndone(tx, userId, storyId, ctx.clock.now());
  });
  if (restored.length === 0) throw new Conflict(NOTHING_TO_REDO_DETAIL);
  return withVersions(ctx, restored);
}

/**
 * Deletes for good what was undone and not redone (the next turn ends Redo), in the caller's transaction that
 * holds the conversation lock. Their media stay in the gallery, as when a story is deleted; a scene still
 * being made for one of them is refunded and its job cancelled.
 */
async function forgetUndone(
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

/** Changes the words of one of the story's messages (the player's or the narrator's); media stay. */
export async function editMessage(
  ctx: Pick<AppContext, "db" | "clock" | "storage" | "providers" | "jobs" | "log">,
  userId: string,
  storyId: string,
  messageId: string,
  content: string,
): Promise<ChatMessage> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row || row.undoStep !== null) throw new NotFound("Message not found");
  // Its scene is being painted from these words: the change waits for that message only.
  if (row.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL);
  const updated = await updateContent(ctx.db, messageId, content, ctx.clock.now());
  if (!updated) throw new NotFound("Message not found");
  if (updated.role === "assistant") void queueEmbeddings(ctx, userId, storyId);
  return (await withVersions(ctx, [updated]))[0]!;
}

/** Every version of a narrator answer, first first, marked with the one the story shows. */
export async function messageVersions(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  storyId: string,
  messageId: string,
): Promise<(ChatMessage & { selected: boolean })[]> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row || row.undoStep !== null) throw new NotFound("Message not found");
  const versions = await versionsOf(ctx.db, userId, groupOf(row));
  return Promise.all(
    versions.map(async (version) => ({
      ...(await toChatMessage(ctx, version)),
      version: version.versionNumber,
      version_count: versions.length,
      selected: !version.hidden,
    })),
  );
}

/** Shows version `n` of a narrator answer in the story (and so to the narrator from now on). */
export async function selectVersion(
  ctx: Pick<AppContext, "db" | "clock" | "storage">,
  userId: string,
  storyId: string,
  messageId: string,
  n: number,
): Promise<ChatMessage> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row || row.undoStep !== null) throw new NotFound("Message not found");
  const group = groupOf(row);
  const versions = await versionsOf(ctx.db, userId, group);
  // An undone answer's versions wait for Redo with it.
  if (versions.some((version) => version.undoStep !== null)) throw new NotFound("Message not found");
  const chosen = versions.find((version) => version.versionNumber === n);
  if (!chosen) throw new NotFound("Version not found");
  await showVersion(ctx.db, group, chosen.id, ctx.clock.now());
  return (await withVersions(ctx, [{ ...chosen, hidden: false }]))[0]!;
}

/** Messages as the API shows them, with their version number and count where they were retried. */
async function withVersions(ctx: Pick<AppContext, "db" | "storage">, rows: MessageRow[]) {
  const counts = await versionCounts(
    ctx.db,
    rows.flatMap((row) => (row.versionGroup ? [row.versionGroup] : [])),
  );
  return Promise.all(
    rows.map(async (row) => {
      const message = await toChatMessage(ctx, row);
      const count = row.versionGroup ? counts.get(row.versionGroup) : undefined;
      return count ? { ...message, version: row.versionNumber, version_count: count } : message;
    }),
  );
}

export async function toChatMessage(ctx: Pick<AppContext, "storage">, row: MessageRow): Promise<ChatMessage> {
  const created = row.createdAt.toISOString();
  return {
    id: row.id,
    _id: row.id,
    message_id: row.id,
    role: row.role,
    content: row.content,
    timestamp: created,
    created_at: created,
    mode: row.mode,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
    media_status: row.mediaStatus,
    media_error: row.mediaError,
    ...(row.stopped ? { stopped: true } : {}),
    // Absent (not null) where nothing was recorded: the player's, the main chat's and older messages.
    ...(row.shapedBy ? { shaped_by: row.shapedBy } : {}),
  };
}

/** What the event stream says when a message's media ended; null while pending (or when it is gone). */
export async function mediaEventOf(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  messageId: string,
): Promise<MediaEvent | null> {
  const row = await findMessage(ctx.db, userId, undefined, messageId);
  if (!row || (row.mediaStatus !== "completed" && row.mediaStatus !== "failed")) return null;
  return {
    message_id: row.id,
    story_id: row.storyId,
    status: row.mediaStatus,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
    error: row.mediaError,
  };
}

/**
 * Media still pending past the turn's deadline (its job died on the last try, or the queue lost it) must
 * not hold the user's credits: the poll that notices fails it, refunds the media part and cancels the job.
 */
export async function mediaStatus(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "jobs" | "log">,
  userId: string,
  storyId: string | null | undefined,
  messageId: string,
): Promise<MediaStatus> {
  let row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row) throw new NotFound("Message not found");
  if (row.mediaStatus === "pending" && ctx.clock.now().getTime() >= mediaDeadline(row)) {
    await failMedia(ctx, row, MEDIA_TIMED_OUT_MESSAGE);
    // Read back: the job may have finished first, and then its media are the answer.
    row = (await findMessage(ctx.db, userId, storyId, messageId)) ?? row;
  }
  return {
    message_id: row.id,
    status: row.mediaStatus,
    media_generation_completed: row.mediaStatus === "completed",
    media_generation_failed: row.mediaStatus === "failed",
    media_generation_error: row.mediaError,
    image_url: await urlFor(ctx, row.imageKey),
    video_url: await urlFor(ctx, row.videoKey),
  };
}

/** The answer for a message that makes no video (an image or chat turn, or a user's message). */
export const NOT_A_VIDEO_TASK_DETAIL = "Unknown video task: this message makes no video.";

/** A video turn's media status (GET /api/video-status/{id}); any other message is a 404, never "processing". */
export async function videoTaskStatus(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "jobs" | "log">,
  userId: string,
  messageId: string,
): Promise<MediaStatus> {
  const row = await findMessage(ctx.db, userId, undefined, messageId);
  if (!row) throw new NotFound("Message not found");
  if (row.role !== "assistant" || row.mode !== "video" || row.mediaStatus === "none") {
    throw new NotFound(NOT_A_VIDEO_TASK_DETAIL);
  }
  return mediaStatus(ctx, userId, undefined, messageId);
}

/** The main chat's messages, oldest first, as the API shows them (it has no retry versions). */
export async function mainChatHistory(ctx: Pick<AppContext, "db" | "storage">, userId: string) {
  const rows = await allMessages(ctx.db, userId, null);
  return Promise.all(rows.map((row) => toChatMessage(ctx, row)));
}

export async function conversation(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  storyId: string | null,
) {
  return withVersions(ctx, await allMessages(ctx.db, userId, storyId));
}

/**
 * Deletes a story's messages. Media still being made for them will never reach the user (the job finds
 * its message gone and removes what it made), so their media part is refunded and their jobs cancelled, in
 * the caller's transaction. Refunds are keyed by message id: a job that failed first cannot double them.
 * Holds the conversation's lock, as a turn's commit does: a turn being written either committed before
 * (and is refunded here) or commits after and finds its story gone (and is refunded whole by the turn).
 * Returns the uploaded reference files to remove once the caller's transaction has committed.
 */
export async function deleteStoryConversation(
  ctx: Pick<AppContext, "db" | "clock" | "log" | "jobs">,
  userId: string,
  storyId: string,
): Promise<string[]> {
  await lockConversation(ctx.db, userId, storyId);
  const pending = await pendingMessagesOfStory(ctx.db, userId, storyId);
  for (const message of pending) {
    await refundPaid(
      ctx,
      message,
      mediaPartTenths(message),
      message.id,
      "Refund: the story was deleted before its media was ready",
    );
    await ctx.jobs.cancel(generateMediaJob, message.id, { tx: ctx.db });
  }
  await deleteConversation(ctx.db, userId, storyId);
  return pending.flatMap((message) => message.referenceKeys);
}

/** How many messages each story's conversation holds and when the newest was written. */
export async function conversationStats(ctx: Pick<AppContext, "db">, userId: string, storyIds: string[]) {
  return storyConversationStats(ctx.db, userId, storyIds);
}

/** conversationStats for every story of the user (the story list). */
export async function conversationStatsOfAllStories(ctx: Pick<AppContext, "db">, userId: string) {
  return allStoriesConversationStats(ctx.db, userId);
}

/** A story's turns, oldest first, as stored (storage keys, not URLs): for exports and share pages. */
export type StoryTurn = Pick<
  MessageRow,
  "id" | "role" | "content" | "mode" | "mediaStatus" | "imageKey" | "videoKey" | "createdAt"
>;

export async function storyTurns(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<StoryTurn[]> {
  const rows = await allMessages(ctx.db, userId, storyId);
  return rows.map(({ id, role, content, mode, mediaStatus, imageKey, videoKey, createdAt }) => ({
    id,
    role,
    content,
    mode,
    mediaStatus,
    imageKey,
    videoKey,
    createdAt,
  }));
}

/** One message of a story as its words (for drafting a card from it); undefined when not the user's. */
export async function storyMessageText(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  messageId: string,
): Promise<{ role: "user" | "assistant"; content: string; imageKey: string | null } | undefined> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row) return undefined;
  // Only a finished picture counts: a pending or failed one is not in the gallery yet.
  const imageKey = row.mediaStatus === "completed" ? row.imageKey : null;
  return { role: row.role as "user" | "assistant", content: row.content, imageKey };
}

/** How many messages a story shows, and how many are no newer than `through` (one counting query). */
export async function storyMessageCounts(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  through: Date | null,
) {
  return countMessagesThrough(ctx.db, userId, storyId, through);
}

/** A story's conversation as the narrator reads it (the shown version of each answer), oldest first. */
export async function storyTranscript(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<{ role: "user" | "assistant"; content: string; createdAt: Date }[]> {
  const rows = await allMessages(ctx.db, userId, storyId);
  return rows.map((row) => ({
    role: row.role as "user" | "assistant",
    content: row.content,
    createdAt: row.createdAt,
  }));
}

/** What a turn with these words would recall from the story (GET /api/stories/{id}/recall). */
export async function recallPreview(
  ctx: Pick<AppContext, "db"> & Partial<Pick<AppContext, "providers" | "log">>,
  userId: string,
  storyId: string,
  words: string,
) {
  // By meaning too when the caller's context carries the providers (the routes' does).
  const meaning =
    ctx.providers && ctx.log
      ? await meaningOf({ ...ctx, providers: ctx.providers, log: ctx.log }, words)
      : undefined;
  return recallExchanges(ctx.db, userId, storyId, words, undefined, meaning);
}

/**
 * Pins one of the story's narrator messages (always recalled; it is remembered again) or forgets it (never
 * recalled; it is unpinned). Undefined when the story has no such narrator message.
 */
export async function markRecalled(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string,
  messageId: string,
  change: { pinned?: boolean | undefined; forgotten?: boolean | undefined },
): Promise<{ pinned: boolean; forgotten: boolean } | undefined> {
  const message = await findMessage(ctx.db, userId, storyId, messageId);
  if (message?.role !== "assistant" || message.hidden) return undefined;
  const was = await recallMarkOf(ctx.db, userId, messageId);
  const forgotten = change.forgotten ?? (change.pinned ? false : (was?.forgotten ?? false));
  const pinned = !forgotten && (change.pinned ?? was?.pinned ?? false);
  await markRecall(ctx.db, { userId, storyId, messageId, pinned, forgotten, at: ctx.clock.now() });
  return { pinned, forgotten };
}
