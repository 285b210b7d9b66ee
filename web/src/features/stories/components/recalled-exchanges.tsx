// The older exchanges the next turn recalls, in "What the narrator sees": each with its turn, why it was picked
// (the words it shares with the turn, or a pin) and whether it fits the recall share of the budget; the player
// pins one (always recalled) or forgets one (never recalled again).
import type { NarratorContext } from "@storyverse/contract/story-craft";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../../components/button";
import { errorMessage } from "../../../lib/api-errors";
import { STORIES_KEY } from "../api/list-stories";
import { markRecalled } from "../api/recall";

type Recalled = NarratorContext["recalled"][number];

const why = (line: Recalled) =>
  line.pinned
    ? "pinned by you"
    : line.matched.length === 0
      ? // Recalled by meaning alone (an embeddings provider, decision 0113): no word in common.
        "close in meaning to the next message"
      : `shares ${line.matched.map((word) => `“${word}”`).join(", ")} with the next message`;

export function RecalledExchanges({ storyId, recalled }: { storyId: string; recalled: Recalled[] }) {
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
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-label="Recalled from earlier">
      <h3 className="text-sm font-semibold text-ink">Recalled from earlier</h3>
      {recalled.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">
          Nothing: no older turn shares words with the next message, and none is pinned.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
          {recalled.map((line) => (
            <li key={line.message_id} aria-label={`Turn ${line.turn}`} className="px-3 py-2">
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                <span className={`font-semibold ${line.in_context ? "text-ink" : "text-ink-muted"}`}>
                  Turn {line.turn}
                </span>
                {line.pinned ? (
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink">
                    Pinned
                  </span>
                ) : null}
                {line.in_context ? null : (
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs font-medium text-ink-muted">
                    Left out: no room
                  </span>
                )}
              </div>
              <p className="mt-0.5 line-clamp-3 break-words text-ink">{line.narrator}</p>
              <p className="mt-0.5 break-words text-ink-muted">
                <span className="font-medium">Why:</span> {why(line)}
              </p>
              <div className="mt-1.5 flex flex-wrap gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={busy !== null}
                  onClick={() => void mark(line, { pinned: !line.pinned })}
                  aria-label={`${line.pinned ? "Unpin" : "Pin"} turn ${line.turn}`}
                >
                  {line.pinned ? "Unpin" : "Pin"}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy !== null}
                  onClick={() => void mark(line, { forgotten: true })}
                  aria-label={`Forget turn ${line.turn}`}
                >
                  Forget
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
