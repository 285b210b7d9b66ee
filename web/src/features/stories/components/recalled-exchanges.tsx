// The older exchanges the next turn recalls, in "What the narrator sees": each with its turn, why it was picked
// (the words it shares with the turn, or a pin) and whether it fits the recall share of the budget; the player
// pins one (always recalled) or forgets one (never recalled again).
import type { NarratorContext } from "@storyverse/contract/story-craft";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { formatList } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { STORIES_KEY } from "../api/list-stories";
import { markRecalled } from "../api/recall";

type Recalled = NarratorContext["recalled"][number];

const why = (line: Recalled) =>
  line.pinned
    ? i18n.t("stories:recalled.whyPinned")
    : line.matched.length === 0
      ? // Recalled by meaning alone (an embeddings provider, decision 0113): no word in common.
        i18n.t("stories:recalled.whyMeaning")
      : i18n.t("stories:recalled.whyShares", {
          words: formatList(
            line.matched.map((word) => i18n.t("stories:recalled.quoted", { word })),
            "unit",
          ),
        });

export function RecalledExchanges({ storyId, recalled }: { storyId: string; recalled: Recalled[] }) {
  const { t } = useTranslation("stories");
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mark = async (line: Recalled, change: { pinned?: boolean; forgotten?: boolean }) => {
    setBusy(line.message_id);
    setError(null);
    try {
      await markRecalled(storyId, line.message_id, change);
      await queryClient.invalidateQueries({ queryKey: [...STORIES_KEY, storyId, "context"] });
    } catch (failure) {
      setError(translateServerMessage(errorMessage(failure)));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-label={t("recalled.title")}>
      <h3 className="text-sm font-semibold text-ink">{t("recalled.title")}</h3>
      {recalled.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">{t("recalled.none")}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
          {recalled.map((line) => (
            <li
              key={line.message_id}
              aria-label={t("recalled.turn", { turn: line.turn })}
              className="px-3 py-2"
            >
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                <span className={`font-semibold ${line.in_context ? "text-ink" : "text-ink-muted"}`}>
                  {t("recalled.turn", { turn: line.turn })}
                </span>
                {line.pinned ? (
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink">
                    {t("recalled.pinned")}
                  </span>
                ) : null}
                {line.in_context ? null : (
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink-muted">
                    {t("recalled.leftOut")}
                  </span>
                )}
              </div>
              <p data-user-text className="mt-0.5 line-clamp-3 break-words text-ink">
                {line.narrator}
              </p>
              <p className="mt-0.5 break-words text-ink-muted">
                <span className="font-medium">{t("recalled.why")}</span> {why(line)}
              </p>
              <div className="mt-1.5 flex flex-wrap gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={busy !== null}
                  onClick={() => void mark(line, { pinned: !line.pinned })}
                  aria-label={t(line.pinned ? "recalled.unpinTurn" : "recalled.pinTurn", { turn: line.turn })}
                >
                  {line.pinned ? t("recalled.unpin") : t("recalled.pin")}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy !== null}
                  onClick={() => void mark(line, { forgotten: true })}
                  aria-label={t("recalled.forgetTurn", { turn: line.turn })}
                >
                  {t("recalled.forget")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p role="alert" data-server-text className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
