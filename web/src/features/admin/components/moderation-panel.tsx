// Moderation: the live share links, newest first, found by a pasted link or token, the owner's email or name, or
// the story's title; an administrator takes one down with a reason, which its owner sees in the story's Share
// dialog. The link stops working at once and the story cannot be shared again, until an administrator lifts the
// takedown from the "Taken down" list (the link then works again).
import { ADMIN_REASON_MAX, type AdminShare } from "@storyverse/contract/admin";
import { ExternalLink, Link2, Link2Off, Search } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { type ShareStatus, useAdminShares, useLiftTakedown, useTakeDown } from "../api/admin-operations";
import { cardClasses, dateTimeText } from "./admin-format";

function TakeDownForm({
  share,
  onDone,
  onCancel,
}: {
  share: AdminShare & { token: string };
  onDone: (text: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("admin");
  const takeDown = useTakeDown();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") {
      setProblem(t("moderation.reasonRequired"));
      return;
    }
    setProblem(null);
    takeDown.mutate(
      { token: share.token, reason: reason.trim() },
      {
        onSuccess: ({ story_title }) => onDone(t("moderation.takenDown", { title: story_title })),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={submit} className="mt-3 flex flex-col gap-3 border-t border-line pt-3">
      <TextField
        label={t("moderation.reason")}
        maxLength={ADMIN_REASON_MAX}
        value={reason}
        onValueChange={setReason}
        autoFocus
      />
      <FormAlert message={problem} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" size="sm" loading={takeDown.isPending}>
          {t("moderation.takeLinkDown")}
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          {t("cancel")}
        </Button>
      </div>
    </form>
  );
}

/** Lifts a takedown at once: it is undone by taking the link down again. */
function LiftButton({
  share,
  onDone,
}: {
  share: AdminShare & { token: string };
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation("admin");
  const lift = useLiftTakedown();
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        size="sm"
        icon={<Link2 aria-hidden="true" className="size-4" />}
        aria-label={t("moderation.liftLabel", { title: share.story_title })}
        loading={lift.isPending}
        onClick={() =>
          lift.mutate(
            { token: share.token },
            { onSuccess: ({ story_title }) => onDone(t("moderation.lifted", { title: story_title })) },
          )
        }
      >
        {t("moderation.lift")}
      </Button>
      {lift.isError ? <FormAlert message={errorMessage(lift.error)} /> : null}
    </div>
  );
}

export function ModerationPanel() {
  const { t } = useTranslation("admin");
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState<ShareStatus>("live");
  const [open, setOpen] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const shares = useAdminShares(query, status);
  const rows = shares.data?.pages.flatMap((page) => page.shares) ?? [];

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(text.trim());
    setOpen(null);
  };

  return (
    <section aria-labelledby="admin-moderation-title" className={cardClasses}>
      <h2 id="admin-moderation-title" className="text-lg font-semibold tracking-tight">
        {t("moderation.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("moderation.lede")}</p>
      <form onSubmit={search} className="mt-4 flex items-end gap-2">
        <TextField
          className="min-w-0 flex-1"
          label={t("moderation.search")}
          placeholder={t("moderation.searchPlaceholder")}
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
          {t("search")}
        </Button>
      </form>
      <fieldset className="mt-3 flex flex-wrap gap-2">
        <legend className="sr-only">{t("moderation.which")}</legend>
        {(["live", "taken_down"] as const).map((value) => (
          <Button
            key={value}
            size="sm"
            variant={status === value ? "primary" : "ghost"}
            aria-pressed={status === value}
            onClick={() => {
              setStatus(value);
              setOpen(null);
              setDone(null);
            }}
          >
            {value === "live" ? t("moderation.liveLinks") : t("moderation.takenDownLinks")}
          </Button>
        ))}
      </fieldset>
      <FormAlert message={done} tone="success" className="mt-3" />
      <div className="mt-4">
        {shares.isPending ? (
          <p className="text-sm text-ink-muted">{t("moderation.loading")}</p>
        ) : shares.isError ? (
          <FormAlert message={errorMessage(shares.error)} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-ink-muted">
            {status === "taken_down"
              ? query
                ? t("moderation.noTakenDownMatch", { query })
                : t("moderation.noneTakenDown")
              : query
                ? t("moderation.noMatch", { query })
                : t("moderation.noneShared")}
          </p>
        ) : (
          <ul aria-label={t("moderation.title")} className="flex flex-col gap-2">
            {rows.map((share) => (
              <li key={`${share.story_id} ${share.created_at}`} className="rounded-xl border border-line p-3">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="truncate font-semibold" data-user-text>
                      {share.story_title}
                    </p>
                    <p className="truncate text-sm text-ink-muted">
                      {t("moderation.sharedBy", {
                        email: share.owner_email,
                        date: dateTimeText(share.created_at),
                      })}
                    </p>
                    {share.url ? (
                      <a
                        href={share.url}
                        target="_blank"
                        rel="noreferrer"
                        className="mt-1 inline-flex max-w-full items-center gap-1 truncate text-sm font-medium text-accent-ink underline-offset-4 hover:underline"
                      >
                        <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
                        <span className="truncate" data-user-text>
                          {share.url}
                        </span>
                      </a>
                    ) : (
                      <p className="mt-1 text-sm text-ink-muted">{t("moderation.olderLink")}</p>
                    )}
                    {share.taken_down ? (
                      <p className="mt-1 text-sm text-ink-muted">
                        {t("moderation.takenDownOn", { date: dateTimeText(share.taken_down.at) })}{" "}
                        <span data-user-text>{share.taken_down.reason}</span>
                      </p>
                    ) : null}
                  </div>
                  {share.token && share.taken_down ? (
                    <LiftButton
                      share={{ ...share, token: share.token }}
                      onDone={(message) => setDone(message)}
                    />
                  ) : share.token && open !== share.token ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      icon={<Link2Off aria-hidden="true" className="size-4" />}
                      aria-label={t("moderation.takeDownLabel", { title: share.story_title })}
                      onClick={() => {
                        setOpen(share.token);
                        setDone(null);
                      }}
                    >
                      {t("moderation.takeDown")}
                    </Button>
                  ) : null}
                </div>
                {share.token && !share.taken_down && open === share.token ? (
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
            {t("loadMore")}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
