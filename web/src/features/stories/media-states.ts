// Per-story media states (local storage key story_media_states): what each story's canvas last
// showed, so switching back to a story restores its picture at once, before its messages arrive.
// The URLs in here are signed and may have expired: the canvas treats a failed load as "refetch".
import { readStorage, type StoryMediaState, writeStorage } from "../../lib/storage";

export function readStoryMediaStates(): Record<string, StoryMediaState> {
  return readStorage("story_media_states") ?? {};
}

export function readStoryMediaState(storyId: string): StoryMediaState | null {
  return readStoryMediaStates()[storyId] ?? null;
}

/** Stores a story's canvas; null forgets it. */
export function saveStoryMediaState(storyId: string, state: StoryMediaState | null): void {
  const states = readStoryMediaStates();
  if (state) states[storyId] = state;
  else if (storyId in states) delete states[storyId];
  else return;
  writeStorage("story_media_states", states);
}

export function removeStoryMediaState(storyId: string): void {
  saveStoryMediaState(storyId, null);
}

/** Forgets the states of stories that no longer exist (pruned whenever the list is read). */
export function pruneStoryMediaStates(existingStoryIds: Iterable<string>): void {
  const keep = new Set(existingStoryIds);
  const states = readStoryMediaStates();
  const pruned = Object.fromEntries(Object.entries(states).filter(([id]) => keep.has(id)));
  if (Object.keys(pruned).length !== Object.keys(states).length) writeStorage("story_media_states", pruned);
}
