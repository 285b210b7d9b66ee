// The stories module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { accountStoriesPage, accountStoryCount } from "./account-rows";
export {
  type BackupStory,
  deleteRestoringStory,
  finishRestoredStory,
  insertRestoringStories,
  type RestoredStory,
  type RestoredTeller,
  restoredStory,
  setRestoredTellers,
  treeForBackup,
} from "./backup-rows";
export { installBranchScope } from "./branch-scope";
export { speakerOrderOf } from "./group";
export type { ImportedStoryInput } from "./imported-story";
export { storyLimits } from "./limits";
export { storyMediaUses } from "./media-uses";
export { findStory, type StoryRow, storiesChanged, updateStory } from "./repo";
export { storyRoutes } from "./routes";
export {
  createImported,
  ownedStoryRecord,
  type StoryRecord,
  storiesCreatedBetween,
  storiesTitled,
  storyEventOf,
} from "./service";
export { generationForBackup, generationFromBackup, generationSettings } from "./settings";
export { storySummaryJob, writeStorySummary } from "./summary";
export type { TurnCards } from "./turn-cards";
