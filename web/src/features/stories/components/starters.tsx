// "Start from a scenario": the ready-made openings shipped with the app, offered in the empty Stories list as
// cards with their picture, title and tagline. Choosing one makes a new story from it (free) and opens it.
import type { Starter } from "@storyverse/contract/interop";
import type { Story } from "@storyverse/contract/stories";
import { Play, RotateCw, TriangleAlert } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useStarters, useStartStarter } from "../api/starters";
import { rememberImportNotes } from "./import-notes";

export function StartersSection({ onStarted }: { onStarted: (story: Story) => Promise<void> }) {
  const { t } = useTranslation("stories");
  const starters = useStarters();
  const start = useStartStarter();
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  const choose = async (starter: Starter) => {
    if (starting) return;
    setStarting(starter.id);
    setError(null);
    try {
      const result = await start.mutateAsync(starter.id);
      rememberImportNotes(result.story.id, result.notes);
      await onStarted(result.story);
    } catch (failure) {
      setError(
        t("starters.failed", {
          title: starter.title,
          message: translateServerMessage(errorMessage(failure)),
        }),
      );
    } finally {
      setStarting(null);
    }
  };

  // No scenarios shipped (or none yet read): the welcome stands alone.
  if (starters.isSuccess && starters.data.length === 0) return null;

  return (
    <section aria-labelledby={titleId} className="mt-12 lg:mt-8">
      <h2 id={titleId} className="text-xl font-bold tracking-tight">
        {t("starters.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("starters.text")}</p>
      <div role="alert">
        {error ? (
          <p className="mt-4 flex items-start gap-3 rounded-xl border border-danger/30 bg-danger/10 px-4 py-3 text-sm leading-6 text-danger">
            <TriangleAlert aria-hidden="true" className="mt-1 size-4 shrink-0" />
            <span className="min-w-0 break-words">{error}</span>
          </p>
        ) : null}
      </div>
      {starters.isPending ? (
        <ul
          aria-label={t("starters.loading")}
          className="mt-5 grid grid-cols-1 gap-5 sm:grid-cols-2 xl:grid-cols-4"
        >
          {[0, 1, 2, 3].map((n) => (
            <li key={n} className="overflow-hidden rounded-2xl border border-line bg-surface shadow-soft">
              <div className="aspect-[16/10] bg-surface-2 motion-safe:animate-pulse" />
              <div className="space-y-3 p-4">
                <div className="h-4 w-1/2 rounded bg-surface-2 motion-safe:animate-pulse" />
                <div className="h-3 w-full rounded bg-surface-2 motion-safe:animate-pulse" />
              </div>
            </li>
          ))}
        </ul>
      ) : starters.isError ? (
        <div className="mt-5 flex flex-wrap items-center gap-3 text-sm text-ink-muted">
          <span>
            {t("starters.loadFailed", { message: translateServerMessage(errorMessage(starters.error)) })}
          </span>
          <Button variant="secondary" size="sm" onClick={() => void starters.refetch()}>
            <RotateCw aria-hidden="true" className="size-4" /> {t("starters.tryAgain")}
          </Button>
        </div>
      ) : (
        <ul className="mt-5 grid grid-cols-1 gap-5 sm:grid-cols-2 xl:grid-cols-4">
          {starters.data.map((starter) => (
            <li key={starter.id} className="flex">
              <StarterCard
                starter={starter}
                starting={starting === starter.id}
                disabled={starting !== null}
                onChoose={() => void choose(starter)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StarterCard({
  starter,
  starting,
  disabled,
  onChoose,
}: {
  starter: Starter;
  starting: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  const { t } = useTranslation("stories");
  const [broken, setBroken] = useState(false);
  return (
    <button
      type="button"
      onClick={onChoose}
      disabled={disabled}
      aria-busy={starting || undefined}
      aria-label={t("starters.startLabel", { title: starter.title, tagline: starter.tagline })}
      className="group relative flex w-full flex-col overflow-hidden rounded-2xl border border-line bg-surface text-start shadow-soft transition duration-200 hover:-translate-y-0.5 hover:border-accent-400/60 hover:shadow-lifted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--sv-focus)] disabled:cursor-not-allowed disabled:hover:translate-y-0 motion-reduce:hover:translate-y-0 [&:disabled:not([aria-busy])]:opacity-60"
    >
      <div className="relative aspect-[16/10] w-full overflow-hidden bg-surface-2">
        {broken ? null : (
          <img
            src={starter.image_url}
            alt=""
            loading="lazy"
            onError={() => setBroken(true)}
            className="size-full object-cover transition duration-200 group-hover:scale-[1.03] motion-reduce:group-hover:scale-100"
          />
        )}
        <div className="absolute inset-0 bg-gradient-to-t from-black/45 via-transparent to-transparent" />
        <span className="absolute inset-e-3 bottom-3 inline-flex items-center gap-1.5 rounded-full bg-black/65 px-3 py-1 text-xs font-semibold text-white">
          {starting ? <Spinner className="size-3.5" /> : <Play aria-hidden="true" className="size-3.5" />}
          {starting ? t("starters.starting") : t("starters.start")}
        </span>
      </div>
      <div className="flex flex-1 flex-col p-4">
        <span data-user-text className="text-base font-semibold text-ink">
          {starter.title}
        </span>
        <span data-user-text className="mt-1 line-clamp-3 text-sm leading-5 text-ink-muted">
          {starter.tagline}
        </span>
      </div>
    </button>
  );
}
