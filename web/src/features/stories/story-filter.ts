// The Stories list's order and card labels (its search is the server's: GET /api/stories?q=).
import type { Story } from "@storyverse/contract/stories";

/** Most recently played first: the story you were just in leads the list. */
export function byLastActivity<T extends Pick<Story, "last_updated">>(stories: readonly T[]): T[] {
  return [...stories].sort((a, b) => Date.parse(b.last_updated) - Date.parse(a.last_updated));
}

/** What a card says about the last activity: a date, or 'New' for a story with no messages yet. */
export function lastActivityLabel(
  story: Pick<Story, "message_count" | "last_updated" | "updated_at">,
): string {
  if (!story.message_count) return "New";
  const date = new Date(story.last_updated || story.updated_at);
  if (Number.isNaN(date.getTime())) return "New";
  return date.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

export function messageCountLabel(count: number | null | undefined): string {
  const n = count ?? 0;
  return `${n} ${n === 1 ? "message" : "messages"}`;
}
