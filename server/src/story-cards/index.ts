// The story-cards module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export {
  assertRoomForRestoredPortraits,
  type BackupCard,
  type BackupDraft,
  branchCardsForBackup,
  insertRestoredCardsAndDrafts,
  type RestoredCard,
  type RestoredDraft,
} from "./backup-rows";
export { cutToFit, fitTriggers, freeName, nameKey, renamedNote } from "./card-rules";
export {
  createImportedCards,
  discardStoryPortraits,
  type ExportedCard,
  type ImportedCardInput,
  storyCards,
} from "./cards";
export { GALLERY_REFERENCE_PREFIX, storiesWhoseCardsShow } from "./cards-repo";
export { storyCardRoutes } from "./cards-routes";
export { cardsBranchPart } from "./deleted-branch";
export { livingLoreJob, loreEventOf, updateLivingLore } from "./living-lore";
export { livingLoreRoutes } from "./living-lore-routes";
export { nameKeyOf } from "./lore-extract";
export { loreSettingsRoutes } from "./lore-settings-routes";
export { encodePortrait, PORTRAIT_MAX_STORED_BYTES } from "./portraits";
export { exportCards, importCards } from "./service";
export { storyCardsOfATurn } from "./turn-cards";
