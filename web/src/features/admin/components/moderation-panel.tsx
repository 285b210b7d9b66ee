// Moderation: the live share links, newest first, found by a pasted link or token or by the owner's email or
// name; an administrator takes one down with a reason, which its owner sees in the story's Share dialog. The
// link stops working at once and the story cannot be shared again.
import { ADMIN_REASON_MAX, type AdminShare } from "@storyverse/contract/admin";
import { ExternalLink, Link2Off, Search } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminShares, useTakeDown } from "../api/admin-operations";
import { cardClasses } from "./admin-format";

const date = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

function TakeDownForm({
  share,
  onDone,
  onCancel,
}: {
  share: AdminShare & { token: string };
  onDone: (text: string) => void;
  onCancel: () => void;
}) {
  const takeDown = useTakeDown();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") {
      setProblem("A reason is required: the owner sees it.");
      return;
    }
    setProblem(null);
    takeDown.mutate(
      { token: share.token, reason: reason.trim() },
      {
        onSuccess: ({ story_title }) =>
          onDone(`The link to “${story_title}” is down. Its owner sees your reason.`),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} className="mt-3 flex flex-col gap-3 border-t border-line pt-3">
      <TextField
        label="Reason the owner sees"
        maxLength={ADMIN_REASON_MAX}
        value={reason}
        onValueChange={setReason}
        autoFocus
      />
      <FormAlert message={problem} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" size="sm" loading={takeDown.isPending}>
          Take link down
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function ModerationPanel() {
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const shares = useAdminShares(query);
  const rows = shares.data?.pages.flatMap((page) => page.shares) ?? [];

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(text.trim());
    setOpen(null);
  };

  return (
    <section aria-labelledby="admin-moderation-title" className={cardClasses}>
      <h2 id="admin-moderation-title" className="text-lg font-semibold tracking-tight">
        Share links
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Every live link to a story. Taking one down ends it at once; its owner sees your reason and cannot
        share that story again.
      </p>
      <form onSubmit={search} className="mt-4 flex items-end gap-2">
        <TextField
          className="min-w-0 flex-1"
          label="Search share links"
          placeholder="A link, or the owner's email or name"
          value={text}
          onValueChange={setText}
          autoCapitalize="none"
          spellCheck={false}
        />
        <Button
          type="submit"
          variant="secondary"
          size="md"
          icon={<Search aria-hidden="true" className="size-4" />}
        >
          Search
        </Button>
      </form>
      <FormAlert message={done} tone="success" className="mt-3" />
      <div className="mt-4">
        {shares.isPending ? (
          <p className="text-sm text-ink-muted">Loading share links…</p>
        ) : shares.isError ? (
          <FormAlert message={errorMessage(shares.error)} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-ink-muted">
            {query ? `No live share link matches “${query}”.` : "No story is shared."}
          </p>
        ) : (
          <ul aria-label="Share links" className="flex flex-col gap-2">
            {rows.map((share) => (
              <li key={`${share.story_id} ${share.created_at}`} className="rounded-xl border border-line p-3">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="truncate font-semibold">{share.story_title}</p>
                    <p className="truncate text-sm text-ink-muted">
                      {share.owner_email} · shared {date(share.created_at)}
                    </p>
                    {share.url ? (
                      <a
                        href={share.url}
                        target="_blank"
                        rel="noreferrer"
                        className="mt-1 inline-flex max-w-full items-center gap-1 truncate text-sm font-medium text-accent-ink underline-offset-4 hover:underline"
                      >
                        <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
                        <span className="truncate">{share.url}</span>
                      </a>
                    ) : (
                      <p className="mt-1 text-sm text-ink-muted">
                        An older link whose address cannot be shown again.
                      </p>
                    )}
                  </div>
                  {share.token && open !== share.token ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      icon={<Link2Off aria-hidden="true" className="size-4" />}
                      aria-label={`Take down the link to ${share.story_title}`}
                      onClick={() => {
                        setOpen(share.token);
                        setDone(null);
                      }}
                    >
                      Take down
                    </Button>
                  ) : null}
                </div>
                {share.token && open === share.token ? (
                  <TakeDownForm
                    share={{ ...share, token: share.token }}
                    onCancel={() => setOpen(null)}
                    onDone={(message) => {
                      setOpen(null);
                      setDone(message);
                    }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {shares.hasNextPage ? (
          <Button
            className="mt-3 w-full"
            variant="ghost"
            size="sm"
            loading={shares.isFetchingNextPage}
            onClick={() => void shares.fetchNextPage()}
          >
            Load more
          </Button>
        ) : null}
      </div>
    </section>
  );
}
