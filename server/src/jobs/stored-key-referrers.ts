// Every module whose rows can name a stored key, asked by the orphaned media sweep before it removes an object
// (media/orphan-sweep.ts, decision 0123): each answers over its own tables. A module that adds a key column
// adds its referrer here; orphan-sweep.test.ts finds the schema's key columns and fails until each is asked.
import { storageKeysNamedByMessages } from "../conversation/repo";
import type { StoredKeyReferrer } from "../db/stored-keys";
import { storageKeysNamedByExports } from "../exports/export-repo";
import { storageKeysNamedByFilms } from "../exports/film-repo";
import { storageKeysNamedByRestores } from "../interop/restore-job";
import { storageKeysNamedByGallery } from "../media/orphan-sweep";
import { storageKeysNamedByStories } from "../stories/repo";
import { storageKeysNamedByCards } from "../story-cards/cards-repo";
import { storageKeysNamedByStudio } from "../studio/repo";
import { storageKeysNamedBySpeech } from "../voice/repo";

export const storedKeyReferrers: Record<string, StoredKeyReferrer> = {
  gallery: storageKeysNamedByGallery,
  messages: storageKeysNamedByMessages,
  studio: storageKeysNamedByStudio,
  stories: storageKeysNamedByStories,
  cards: storageKeysNamedByCards,
  speech: storageKeysNamedBySpeech,
  films: storageKeysNamedByFilms,
  exports: storageKeysNamedByExports,
  restores: storageKeysNamedByRestores,
};
