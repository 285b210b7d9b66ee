// The story's film: its price shown before starting (free with the offline voice), progress while the job
// runs, then the film itself (also in the Gallery) with its captions. Polls only while a film is being made.
import { CREDIT_COSTS, formatCredits } from "@storyverse/contract/credits";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Clapperboard } from "lucide-react";
import { Button } from "../../../components/button";
import { errorMessage } from "../../../lib/api-errors";
import { fetchFilm, filmKey, startFilm } from "../api/share-links";

const POLL_MS = 2000;

export function filmPriceLabel(cost: number): string {
  return cost === 0 ? "Free: it reuses the scenes you already made" : `Costs ${formatCredits(cost)}`;
}

export function FilmSection({
  storyId,
  onError,
}: {
  storyId: string;
  onError: (message: string | null) => void;
}) {
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
        The story's film
      </h3>
      <p className="text-sm text-ink-muted">
        Every clip and scene of the story in order, narrated in the story's voices, with captions.{" "}
        {filmPriceLabel(cost)}.
      </p>
      {making ? (
        <div className="flex flex-col gap-1">
          <progress
            aria-label="Film progress"
            max={100}
            value={current.progress}
            className="h-2 w-full accent-accent-500"
          />
          <p className="text-xs text-ink-muted" aria-live="polite">
            Making the film… {current.progress}%
          </p>
          {current.step ? <p className="text-xs text-ink-muted">{current.step}</p> : null}
        </div>
      ) : null}
      {current?.status === "failed" && current.error ? (
        <p className="text-sm text-danger">{current.error}</p>
      ) : null}
      {current?.status === "completed" && current.video_url ? (
        <div className="flex flex-col gap-1">
          {/* biome-ignore lint/a11y/useMediaCaption: the track is there whenever the film has captions (and they are in the MP4 too) */}
          <video
            controls
            playsInline
            src={current.video_url}
            className="w-full rounded-xl"
            aria-label="The film"
          >
            {/* Same-origin /api/media links: no crossOrigin needed. */}
            {current.captions_url ? (
              <track kind="captions" srcLang="en" label="English" default src={current.captions_url} />
            ) : null}
          </video>
          <p className="text-xs text-ink-muted">
            {start.data?.reused
              ? "The story has not changed since this film was made: here it is again. "
              : ""}
            The film is in your Gallery too.
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
          {current?.status === "completed" ? "Make the film again" : "Make the film"}
        </Button>
      </div>
    </section>
  );
}
