// The story that is open in the story interface. It lives in memory, outside any one view, because the
// Stories list opens it and the story-interface view (a separate chunk) shows it; a reload starts from
// the list again (spec §2), so nothing here is persisted.
import type { Story } from "@storyverse/contract/stories";
import { useSyncExternalStore } from "react";

export interface OpenStory {
  story: Story;
  /** Who opened it: a story left open by an account that has since signed out is not shown to the next. */
  userId: string;
}

let current: OpenStory | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function readOpenStory(): OpenStory | null {
  return current;
}

export function setOpenStory(story: Story, userId: string): void {
  current = { story, userId };
  emit();
}

/** Keeps the open story's title and context in step after an edit (only if that story is open). */
export function replaceOpenStory(story: Story): void {
  if (current?.story.id !== story.id) return;
  current = { ...current, story };
  emit();
}

export function closeOpenStory(): void {
  if (!current) return;
  current = null;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOpenStory(): OpenStory | null {
  return useSyncExternalStore(subscribe, readOpenStory, readOpenStory);
}
