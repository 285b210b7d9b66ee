// The story's film: its price shown before starting (free with the offline voice), progress while the job
// runs, then the film itself (also in the Gallery) with its captions. Polls only while a film is being made.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Clapperboard } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { formatCreditAmount, formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { fetchFilm, filmKey, startFilm } from "../api/share-links";

const POLL_MS = 2000;

export function filmPriceLabel(cost: number): string {
  return cost === 0
    ? i18n.t("sharing:film.free")
    : i18n.t("sharing:film.costs", { cost: formatCreditAmount(cost) });
}

export function FilmSection({
  storyId,
  onError,
}: {
  storyId: string;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation("sharing");
  const queryClient = useQueryClient();
  const film = useQuery({
    queryKey: filmKey(storyId),
    queryFn: () => fetchFilm(storyId),
    refetchInterval: (query) => {
      const status = query.state.data?.film?.status;
      return status === "queued" || status === "running" ? POLL_MS : false;
    },
  });
  const start = useMutation({
    mutationFn: () => startFilm(storyId),
    onMutate: () => onError(null),
    onSuccess: (response) => queryClient.setQueryData(filmKey(storyId), response),
    onError: (cause) => onError(errorMessage(cause)),
  });
  const current = film.data?.film ?? null;
  const making = current?.status === "queued" || current?.status === "running";
  const cost = film.data?.cost ?? CREDIT_COSTS.film;

  return (
    <section aria-labelledby="film-heading" className="flex flex-col gap-3">
      <h3 id="film-heading" className="text-sm font-semibold">
        {t("film.title")}
      </h3>
      <p className="text-sm text-ink-muted">{t("film.lede", { price: filmPriceLabel(cost) })}</p>
      {making ? (
        <div className="flex flex-col gap-1">
          <progress
            aria-label={t("film.progress")}
            max={100}
            value={current.progress}
            className="h-2 w-full accent-accent-500"
          />
          <p className="text-xs text-ink-muted" aria-live="polite">
            {t("film.making", { percent: formatNumber(current.progress / 100, { style: "percent" }) })}
          </p>
          {current.step ? (
            <p className="text-xs text-ink-muted" data-server-text>
              {translateServerMessage(current.step)}
            </p>
          ) : null}
        </div>
      ) : null}
      {current?.status === "failed" && current.error ? (
        <p className="text-sm text-danger" data-server-text>
          {translateServerMessage(current.error)}
        </p>
      ) : null}
      {current?.status === "completed" && current.video_url ? (
        <div className="flex flex-col gap-1">
          {/* biome-ignore lint/a11y/useMediaCaption: the track is there whenever the film has captions (and they are in the MP4 too) */}
          <video
            controls
            playsInline
            src={current.video_url}
            className="w-full rounded-xl"
            aria-label={t("film.video")}
          >
            {/* Same-origin /api/media links: no crossOrigin needed. The captions are the story's own words, in
                whatever language it was written: no language is claimed for them. */}
            {current.captions_url ? (
              <track kind="captions" label={t("film.captionsLabel")} default src={current.captions_url} />
            ) : null}
          </video>
          <p className="text-xs text-ink-muted">
            {start.data?.reused ? t("film.reused") : t("film.inGallery")}
          </p>
        </div>
      ) : null}
      <div>
        <Button
          variant="secondary"
          size="sm"
          loading={making || start.isPending}
          icon={<Clapperboard aria-hidden="true" className="size-4" />}
          onClick={() => start.mutate()}
        >
          {current?.status === "completed" ? t("film.makeAgain") : t("film.make")}
        </Button>
      </div>
    </section>
  );
}
