// The Stories list's order and card labels (its search is the server's: GET /api/stories?q=).
import type { Story } from "@storyverse/contract/stories";
import { formatDate } from "../../i18n/format";
import { i18n } from "../../i18n/i18n";

/** Most recently played first: the story you were just in leads the list. */
export function byLastActivity<T extends Pick<Story, "last_updated">>(stories: readonly T[]): T[] {
  return [...stories].sort((a, b) => Date.parse(b.last_updated) - Date.parse(a.last_updated));
}

type Activity = Pick<Story, "message_count" | "last_updated" | "updated_at">;

/** When the story was last played; null for a story with no messages yet (or no readable date). */
export function lastActivityDate(story: Activity): Date | null {
  if (!story.message_count) return null;
  const date = new Date(story.last_updated || story.updated_at);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** What a card says about the last activity: a date, or 'New' for a story with no messages yet. */
export function lastActivityLabel(story: Activity): string {
  const date = lastActivityDate(story);
  if (!date) return i18n.t("stories:storyCard.new");
  return formatDate(date, { year: "numeric", month: "short", day: "numeric" });
}

export function messageCountLabel(count: number | null | undefined): string {
  return i18n.t("stories:storyCard.messages", { count: count ?? 0 });
}
