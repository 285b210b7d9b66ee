// The story that was last opened and prepared (session checked, messages read, canvas set). It lives in
// memory, outside any one view, because the Stories list opens it and the story-interface view (a
// separate chunk) shows it. The address (/stories/{id}) says which story to show; when it names another
// one (a reload, a link, back or forward), the story interface prepares that one first.
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
