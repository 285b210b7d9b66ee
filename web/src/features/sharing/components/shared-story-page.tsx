// The public page of a shared story (/s/{token}): read-only, no account needed, nothing of the app
// around it. Story text goes through the app's Markdown component (raw HTML shows as text). A revoked or
// unknown link says so plainly.
import {
  SHARED_PICTURE_SIZES,
  type SharedMessage,
  type SharedStoryResponse,
} from "@storyverse/contract/sharing";
import { BookOpenText } from "lucide-react";
import { useEffect, useState } from "react";
import { Markdown } from "../../../components/markdown";
import { ApiError, errorMessage } from "../../../lib/api-errors";
import { fetchSharedStory } from "../api/share-links";

export const SHARE_GONE_MESSAGE = "This shared story does not exist or is no longer shared.";

/** The token of a /s/{token} address, or null for any other path. */
export function shareTokenFromPath(pathname: string): string | null {
  const match = /^\/s\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ?? null;
}

type PageState =
  | { kind: "loading" }
  | { kind: "ready"; story: SharedStoryResponse }
  | { kind: "error"; message: string };

export function SharedStoryPage() {
  const token = shareTokenFromPath(window.location.pathname) ?? "";
  const [state, setState] = useState<PageState>({ kind: "loading" });

  useEffect(() => {
    const controller = new AbortController();
    fetchSharedStory(token, controller.signal).then(
      (story) => {
        document.title = `${story.story.title} · Storyverse`;
        setState({ kind: "ready", story });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const gone = error instanceof ApiError && error.status === 404;
        setState({ kind: "error", message: gone ? SHARE_GONE_MESSAGE : errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [token]);

  return (
    <main className="mx-auto flex min-h-dvh max-w-3xl flex-col gap-6 px-4 py-10 text-ink sm:px-6">
      <a href="/" className="flex items-center gap-2 text-sm font-semibold text-ink-muted hover:text-ink">
        <BookOpenText aria-hidden="true" className="size-4" />
        Storyverse
      </a>
      {state.kind === "loading" ? <p className="text-ink-muted">Loading the story…</p> : null}
      {state.kind === "error" ? (
        <p role="alert" className="text-lg">
          {state.message}
        </p>
      ) : null}
      {state.kind === "ready" ? <SharedStory story={state.story} /> : null}
    </main>
  );
}

/** A scene picture at the size the page shows it; the first one on the page loads at once and first. */
function ScenePicture({ message, first }: { message: SharedMessage; first: boolean }) {
  const picture = message.picture;
  const timing = first
    ? ({ loading: "eager", fetchPriority: "high" } as const)
    : ({ loading: "lazy", fetchPriority: "auto" } as const);
  if (!picture) {
    return (
      <img
        src={message.image_url ?? undefined}
        alt="The scene"
        {...timing}
        className="mt-3 w-full rounded-xl"
      />
    );
  }
  return (
    <img
      src={picture.src}
      srcSet={picture.srcset}
      sizes={SHARED_PICTURE_SIZES}
      width={picture.width}
      height={picture.height}
      alt="The scene"
      decoding="async"
      {...timing}
      className="mt-3 h-auto w-full rounded-xl"
    />
  );
}

function SharedStory({ story }: { story: SharedStoryResponse }) {
  const firstMedia = story.messages.findIndex((message) => message.image_url || message.video_url);
  return (
    <article className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{story.story.title}</h1>
        {story.author ? <p className="text-sm text-ink-muted">A story by {story.author}</p> : null}
        {story.story.context ? (
          <Markdown className="text-ink-muted italic">{story.story.context}</Markdown>
        ) : null}
      </header>
      {story.messages.length === 0 ? <p className="text-ink-muted">This story has no turns yet.</p> : null}
      <ol className="flex flex-col gap-5">
        {story.messages.map((message, index) => (
          // The list never reorders: positions are stable keys.
          // biome-ignore lint/suspicious/noArrayIndexKey: a shared story is read-only and append-only
          <li key={index} className={message.role === "user" ? "rounded-2xl bg-surface-2 px-4 py-3" : ""}>
            {message.role === "user" ? (
              <p className="mb-1 text-xs font-semibold tracking-wide text-ink-muted uppercase">Player</p>
            ) : null}
            <Markdown>{message.content}</Markdown>
            {message.video_url ? (
              // biome-ignore lint/a11y/useMediaCaption: generated scenes have no spoken words to caption
              <video
                controls
                playsInline
                src={message.video_url}
                poster={message.picture?.src ?? message.image_url ?? undefined}
                width={message.picture?.width}
                height={message.picture?.height}
                preload={index === firstMedia ? "metadata" : "none"}
                className="mt-3 h-auto w-full rounded-xl"
              />
            ) : message.image_url ? (
              <ScenePicture message={message} first={index === firstMedia} />
            ) : null}
          </li>
        ))}
      </ol>
    </article>
  );
}
