// Users: search by email, name or id, a page at a time (cursor), and the opened account beside the list
// (below it on a phone).
import type { AdminUserSummary } from "@storyverse/contract/admin";
import { Search } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminUsers } from "../api/admin-api";
import { cardClasses } from "./admin-format";
import { UserDetail } from "./user-detail";

function Badge({ children, tone = "muted" }: { children: string; tone?: "muted" | "accent" | "danger" }) {
  const colours = {
    muted: "border-line text-ink-muted",
    accent: "border-accent-400/50 text-accent-ink",
    danger: "border-danger/40 text-danger",
  }[tone];
  return (
    <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${colours}`}>{children}</span>
  );
}

function UserRow({ user, open, onOpen }: { user: AdminUserSummary; open: boolean; onOpen: () => void }) {
  const { t } = useTranslation("admin");
  return (
    <li>
      <button
        type="button"
        aria-current={open ? "true" : undefined}
        onClick={onOpen}
        className={`flex w-full flex-col gap-1 rounded-2xl border px-4 py-3 text-start transition duration-200 ${
          open ? "border-accent-400/60 bg-surface-2" : "border-transparent hover:bg-surface-2"
        }`}
      >
        <span className="flex flex-wrap items-center gap-2">
          <span className="truncate font-semibold" data-user-text>
            {user.username}
          </span>
          {user.role === "admin" ? <Badge tone="accent">{t("users.badges.admin")}</Badge> : null}
          {user.disabled ? <Badge tone="danger">{t("users.badges.disabled")}</Badge> : null}
          {user.verified ? null : <Badge>{t("users.badges.unverified")}</Badge>}
        </span>
        <span className="truncate text-sm text-ink-muted" data-user-text>
          {user.email}
        </span>
      </button>
    </li>
  );
}

export function UsersPanel() {
  const { t } = useTranslation("admin");
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const [openId, setOpenId] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const users = useAdminUsers(query);
  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery(text.trim());
  };

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <section aria-labelledby="admin-users-title" className={cardClasses}>
        <h2 id="admin-users-title" className="text-lg font-semibold tracking-tight">
          {t("users.title")}
        </h2>
        <form onSubmit={search} className="mt-4 flex items-end gap-2">
          <TextField
            className="min-w-0 flex-1"
            label={t("users.search")}
            placeholder={t("users.searchPlaceholder")}
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
        <div className="mt-4">
          {users.isPending ? (
            <p className="text-sm text-ink-muted">{t("users.loading")}</p>
          ) : users.isError ? (
            <FormAlert message={errorMessage(users.error)} />
          ) : rows.length === 0 ? (
            <p className="text-sm text-ink-muted">{t("users.noMatch", { query })}</p>
          ) : (
            <ul aria-label={t("users.accounts")} className="flex flex-col gap-1">
              {rows.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  open={user.id === openId}
                  onOpen={() => {
                    setOpenId(user.id);
                    setDeleted(null);
                  }}
                />
              ))}
            </ul>
          )}
          {users.hasNextPage ? (
            <Button
              className="mt-3 w-full"
              variant="ghost"
              size="sm"
              loading={users.isFetchingNextPage}
              onClick={() => void users.fetchNextPage()}
            >
              {t("loadMore")}
            </Button>
          ) : null}
        </div>
      </section>
      {openId ? (
        <UserDetail
          key={openId}
          id={openId}
          onDeleted={(message) => {
            setOpenId(null);
            setDeleted(message);
          }}
        />
      ) : (
        <section className={`${cardClasses} text-sm text-ink-muted`} aria-label={t("users.account")}>
          <FormAlert message={deleted} tone="success" className="mb-3" />
          {t("users.openHint")}
        </section>
      )}
    </div>
  );
}
