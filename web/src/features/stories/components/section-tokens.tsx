// What each of the story's parts (Memory, Author's Note, the summary, the Story Cards) takes of the narrator's
// next turn, in tokens, for the side panel's headings. Read from the context endpoint behind "What the
// narrator sees" (the next turn as Continue would send it), so the panel shows the server's own count of what
// is saved, not an estimate of its own.
import type { NarratorContext } from "@storyverse/contract/story-craft";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { narratorContextQueryOptions } from "../api/narrator-context";

export type ContextPart = NarratorContext["parts"][number]["part"];

/** Tokens by part; null while loading, or when they cannot be read (the panel works without them). */
export function useSectionTokens(storyId: string | null): Partial<Record<ContextPart, number>> | null {
  const context = useQuery({ ...narratorContextQueryOptions(storyId ?? "", ""), enabled: storyId !== null });
  if (!context.data) return null;
  return Object.fromEntries(context.data.parts.map(({ part, tokens }) => [part, tokens]));
}

/** "· 120 tokens" beside a heading; `id` lets a field be described by it. Nothing until the count is known. */
export function TokenCount({ tokens, id }: { tokens: number | undefined; id?: string }) {
  const { t } = useTranslation("stories");
  if (tokens === undefined) return null;
  return (
    <span className="text-xs font-medium text-ink-muted tabular-nums" title={t("sectionTokens.hint")}>
      <span aria-hidden="true">· </span>
      <span id={id}>{t("sectionTokens.tokens", { count: tokens })}</span>
    </span>
  );
}
