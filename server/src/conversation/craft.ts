// Story craft on the newest exchange and on any message: retry (new words, a new scene or both, kept as
// versions), continue, undo and redo, edit, and choosing a version. Each acts only on a settled exchange
// (turn-lock.ts says whether a turn is being written, on any process) and re-checks it inside its commit.
import { randomUUID } from "node:crypto";
import type { ChatMessage, ChatMode, ChatResponse } from "@storyverse/contract/chat";
import { HISTORY_WINDOW, PROMPT_MAX_LENGTH } from "@storyverse/contract/chat";
import {
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
import { payFor } from "../credits";
import type { Queryable } from "../db/client";
import { recordEvent } from "../events";
import { type CheckedInput, discardUploadedInputs, storeInputImages } from "../media";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import { ownMessages } from "./branch-history";
import { generateMediaJob } from "./media-job";
import type { StorySetting } from "./narration";
import { toChatMessage, withVersions } from "./presentation";
import {
  findMessage,
  hideAsUndone,
  insertMessage,
  lockConversation,
  type MessageRow,
  recentMessages,
  showNewestUndone,
  showVersion,
  startVersionGroup,
  undoneExchangeCount,
  updateContent,
  versionsOf,
} from "./repo";
import { shapedBy, withSceneOf } from "./shaped-by";
import type { StoryHooks } from "./story-hooks";
import {
  CONTINUE_INSTRUCTION,
  chargeLabel,
  forgetUndone,
  isForeignKeyViolation,
  narratorContext,
  runTurn,
  STORY_DELETED_DETAIL,
  sceneReferenceRoles,
  sceneReferences,
  sceneSettings,
  type TurnContext,
  type TurnStreaming,
} from "./turn";
import { isWriting, whileWriting } from "./turn-lock";

/** The newest exchange of a conversation: the newest message and, if it answers a player's message, that. */
type Exchange = { answer: MessageRow; question: MessageRow | null; before: MessageRow[] };

/**
 * The newest shown messages: the newest exchange and the narrator's window before it. Retry, Continue and Undo
 * read no further back, so they cost the same at turn 10,000 as at turn 10 (issue 42).
 */
const newestShown = (db: Queryable, userId: string, storyId: string | null) =>
  recentMessages(db, userId, storyId, HISTORY_WINDOW + 2);

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
async function assertSettled(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string | null,
  newest: MessageRow | undefined,
) {
  if (await isWriting(ctx, userId, storyId)) throw new Conflict(STILL_WRITING_DETAIL, "turn_in_progress");
  if (newest?.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL, "media_in_progress");
}

/** A group scene's Continue (the next character speaks) waits for the newest turn, as Continue in place does. */
export async function assertNewestSettled(
  ctx: Pick<AppContext, "db" | "clock">,
  userId: string,
  storyId: string,
) {
  const [newest] = await recentMessages(ctx.db, userId, storyId, 1);
  await assertSettled(ctx, userId, storyId, newest);
}

/** Inside the commit: the newest shown message must still be the one the request was based on. */
async function assertNewestIs(
  tx: Queryable,
  userId: string,
  storyId: string | null,
  expected: (newest: MessageRow | undefined) => boolean,
) {
  const [newest] = await recentMessages(tx, userId, storyId, 1);
  if (newest?.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL, "media_in_progress");
  if (!expected(newest)) throw new Conflict(STILL_WRITING_DETAIL, "turn_in_progress");
}

const groupOf = (row: Pick<MessageRow, "id" | "versionGroup">) => row.versionGroup ?? row.id;

/**
 * Before a message of a branch changes (decision 0137): the branch holds it alone (a message it shares is
 * copied into it; a branch sharing it gets its own copy). Answers the message's id on the branch from now on.
 */
async function ownedId(ctx: Pick<AppContext, "db">, userId: string, storyId: string, messageId: string) {
  const owned = await ctx.db.transaction((tx) =>
    ownMessages(tx, { userId, storyId, messageIds: [messageId] }),
  );
  return owned.get(messageId) ?? messageId;
}

export type CraftInput = {
  userId: string;
  storyId: string;
  hooks: StoryHooks;
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
  const asked = await findMessage(ctx.db, input.userId, input.storyId, input.messageId);
  if (!asked || asked.undoStep !== null) throw new NotFound("Message not found");
  if (asked.role !== "assistant") throw new InvalidInput("Only the narrator's answers can be retried.");
  // A retry writes the answer's versions: the branch holds them alone first (decision 0137).
  const owned = await ctx.db.transaction((tx) =>
    ownMessages(tx, { userId: input.userId, storyId: input.storyId, messageIds: [groupOf(asked), asked.id] }),
  );
  const targetId = owned.get(asked.id) ?? asked.id;
  const target =
    targetId === asked.id ? asked : await findMessage(ctx.db, input.userId, input.storyId, targetId);
  if (!target || target.undoStep !== null) throw new NotFound("Message not found");
  const group = groupOf(target);
  const exchange = newestExchange(await newestShown(ctx.db, input.userId, input.storyId));
  if (!exchange || groupOf(exchange.answer) !== group) throw new Conflict(NEWEST_ONLY_DETAIL);
  await assertSettled(ctx, input.userId, input.storyId, exchange.answer);
  const versions = await versionsOf(ctx.db, input.userId, group);
  const number = Math.max(...versions.map((v) => v.versionNumber)) + 1;
  const prompt = exchange.question?.content ?? CONTINUE_INSTRUCTION;
  const stillNewest = async (tx: Queryable) => {
    // A branch made from this answer meanwhile gets its own copy before the versions change.
    await ownMessages(tx, { userId: input.userId, storyId: input.storyId, messageIds: [group] });
    await assertNewestIs(tx, input.userId, input.storyId, (newest) => !!newest && groupOf(newest) === group);
    const taken = await versionsOf(tx, input.userId, group);
    if (taken.length !== versions.length) throw new Conflict(STILL_WRITING_DETAIL, "turn_in_progress");
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
  const { paid, result: shaped } = await whileWriting(ctx, input.userId, input.storyId, () =>
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
          const sceneKeys = sceneReferences(referenceKeys, active, input.story?.player?.portraitKey);
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
              await input.hooks.played(tx, input.userId, input.storyId, at);
              await recordEvent(tx, { userId: input.userId, kind: "story", subjectId: input.storyId, at });
              await ctx.jobs.send(
                generateMediaJob,
                {
                  messageId: assistantId,
                  storyTitle: input.story.title ?? null,
                  ...sceneSettings(input.story),
                  roles: sceneReferenceRoles(
                    sceneKeys,
                    referenceKeys,
                    input.references.map((reference) => reference.role),
                  ),
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
  let shown = await newestShown(ctx.db, input.userId, input.storyId);
  const last = shown.at(-1);
  // Continuing writes a version of the newest answer: the branch holds it alone first (decision 0137).
  if (
    last?.role === "assistant" &&
    (await ownedId(ctx, input.userId, input.storyId, groupOf(last))) !== groupOf(last)
  ) {
    shown = await newestShown(ctx.db, input.userId, input.storyId);
  }
  const newest = shown.at(-1);
  await assertSettled(ctx, input.userId, input.storyId, newest);
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
        await ownMessages(tx, { userId: input.userId, storyId: input.storyId, messageIds: [group] });
        await assertNewestIs(tx, input.userId, input.storyId, (now) => now?.id === newest.id);
        const taken = await versionsOf(tx, input.userId, group);
        if (taken.length !== versions.length) throw new Conflict(STILL_WRITING_DETAIL, "turn_in_progress");
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
  const exchange = newestExchange(await newestShown(ctx.db, userId, storyId));
  if (!exchange) throw new Conflict(NOTHING_TO_UNDO_DETAIL);
  await assertSettled(ctx, userId, storyId, exchange.answer);
  const shownIds = [exchange.question?.id, exchange.answer.id].filter((id): id is string => !!id);
  const removed = [...shownIds];
  await ctx.db.transaction(async (tx) => {
    await lockConversation(tx, userId, storyId);
    // The undone exchange is the branch's alone (decision 0137): one it shares is copied into it first.
    const group = groupOf(exchange.answer);
    const owned = await ownMessages(tx, { userId, storyId, messageIds: [...shownIds, group] });
    const ids = shownIds.map((id) => owned.get(id) ?? id);
    await assertNewestIs(tx, userId, storyId, (newest) => newest?.id === owned.get(exchange.answer.id));
    const versions = await versionsOf(tx, userId, owned.get(group) ?? group);
    const original = new Map([...owned].map(([was, now]) => [now, was]));
    for (const version of versions) {
      const id = original.get(version.id) ?? version.id;
      if (!removed.includes(id)) removed.push(id);
    }
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
  await assertSettled(ctx, userId, storyId, undefined);
  const restored = await ctx.db.transaction(async (tx) => {
    await lockConversation(tx, userId, storyId);
    return showNewestUndone(tx, userId, storyId, ctx.clock.now());
  });
  if (restored.length === 0) throw new Conflict(NOTHING_TO_REDO_DETAIL);
  return withVersions(ctx, restored);
}

/** Changes the words of one of the story's messages (the player's or the narrator's); media stay. */
export async function editMessage(
  ctx: Pick<AppContext, "db" | "clock" | "storage" | "providers" | "jobs" | "log">,
  userId: string,
  storyId: string,
  messageId: string,
  content: string,
  hooks: StoryHooks,
): Promise<ChatMessage> {
  const row = await findMessage(ctx.db, userId, storyId, messageId);
  if (!row || row.undoStep !== null) throw new NotFound("Message not found");
  // Its scene is being painted from these words: the change waits for that message only.
  if (row.mediaStatus === "pending") throw new Conflict(STILL_PAINTING_DETAIL, "media_in_progress");
  // A player's line stays within what the composer takes; a narrator's answer may be longer.
  if (row.role === "user" && content.length > PROMPT_MAX_LENGTH) {
    throw new InvalidInput(`Messages are limited to ${PROMPT_MAX_LENGTH} characters`);
  }
  // The branch holds the message alone before its words change (decision 0137): no other branch sees the edit.
  const updated = await ctx.db.transaction(async (tx) => {
    const owned = await ownMessages(tx, { userId, storyId, messageIds: [messageId] });
    return updateContent(tx, owned.get(messageId) ?? messageId, content, ctx.clock.now());
  });
  if (!updated) throw new NotFound("Message not found");
  if (updated.role === "assistant") void hooks.index(ctx, userId, storyId, updated.id);
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
  const asked = await findMessage(ctx.db, userId, storyId, messageId);
  if (!asked || asked.undoStep !== null) throw new NotFound("Message not found");
  const chosen = await ctx.db.transaction(async (tx) => {
    // Which version shows is the branch's alone (decision 0137): a shared answer is copied into it first.
    const owned = await ownMessages(tx, { userId, storyId, messageIds: [groupOf(asked)] });
    const group = owned.get(groupOf(asked)) ?? groupOf(asked);
    const versions = await versionsOf(tx, userId, group);
    // An undone answer's versions wait for Redo with it.
    if (versions.some((version) => version.undoStep !== null)) throw new NotFound("Message not found");
    const found = versions.find((version) => version.versionNumber === n);
    if (!found) throw new NotFound("Version not found");
    await showVersion(tx, group, found.id, ctx.clock.now());
    return found;
  });
  return (await withVersions(ctx, [{ ...chosen, hidden: false }]))[0]!;
}
