// The conversation module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export {
  type BackupMessage,
  insertRestoredMessages,
  type RestoredMessage,
  storyMessagesForBackup,
} from "./backup-rows";
export {
  branchHistoryStats,
  checkpointsOf,
  copyHistory,
  filesStillNamed,
  type NamedCheckpoint,
  nameCheckpoint,
  ownMessages,
  planSharedFork,
  referencesOfConversation,
  unshareBranch,
} from "./branch-history";
export {
  type BranchPart,
  branchParts,
  firstOfPartsSql,
  newSharedBranchId,
  partsMessagesAs,
  sharesHistory,
} from "./branch-messages";
export { chatClipTurns } from "./clip-turns";
export {
  assertNewestSettled,
  continueTurn,
  editMessage,
  messageVersions,
  redoableExchanges,
  redoExchange,
  retryMode,
  retryTurn,
  selectVersion,
  undoExchange,
} from "./craft";
export { forgetDeletedMedia, messagesShowingMedia } from "./deleted-media";
export { replaceMacros } from "./macros";
export { generateMedia, generateMediaJob, painterPrompt } from "./media-job";
export { type CursorMessage, storyContentFingerprint, storyMessages } from "./message-cursor";
export {
  CURSOR_DETAIL,
  firstNarration,
  messagePage,
  messageRowsPage,
  type PagedRow,
  type PageQuery,
  shownMessage,
} from "./message-pages";
export type {
  GroupScene,
  RecalledExchange,
  StorySetting,
  TellingCharacter,
  TurnCard,
  Witness,
} from "./narration";
export type { TurnGeneration } from "./narrator-context";
export { insertOpeningMessage } from "./opening-message";
export { mediaEventOf } from "./presentation";
export { findMessage, findMessageById, recentMessages } from "./repo";
export { chatRoutes } from "./routes";
export {
  conversationStats,
  deleteStoryConversation,
  mediaStatus,
  storyMessageCounts,
  storyMessagesAfter,
  storyMessagesNewer,
  storyMessageText,
  storyNarrations,
} from "./service";
export type { StoryHooks } from "./story-hooks";
export { previewContext, runTurn, sendTurn, type TurnContext, type TurnStreaming } from "./turn";
export { replaceTurnMedia } from "./turn-media";
export { presentInSql, wasPresent, witnessesAfter } from "./witness";
