// One account in the admin console: what it is (verified, disabled, role, balance, storage, stories,
// sessions, last seen, spending and caps) and what an administrator may do to it. Each action answers with
// the account as it is now, which replaces what is shown.
import { ADMIN_REASON_MAX, type AdminUser } from "@storyverse/contract/admin";
import {
  BadgeCheck,
  Ban,
  Coins,
  Infinity as InfinityIcon,
  KeyRound,
  LogOut,
  ShieldCheck,
  Trash2,
  Undo2,
} from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { formatCreditAmount, formatNumber } from "../../../i18n/format";
import { errorMessage } from "../../../lib/api-errors";
import { useAdjustCredits, useAdminUser, useRevokeSessions, useUpdateUser } from "../api/admin-api";
import { useDeleteUser, useForceReset } from "../api/admin-operations";
import { capText, cardClasses, dateTimeText, parseCredits, storageText } from "./admin-format";

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">{term}</dt>
      <dd className="mt-1 text-sm font-semibold break-words tabular-nums">{children}</dd>
    </div>
  );
}

function Facts({ user }: { user: AdminUser }) {
  const { t } = useTranslation("admin");
  const capFact = (cap: number | null) => (cap === null ? t("user.facts.default") : formatCreditAmount(cap));
  return (
    <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-3">
      <Fact term={t("user.facts.role")}>
        {user.role === "admin" ? t("user.facts.admin") : t("user.facts.player")}
      </Fact>
      <Fact term={t("user.facts.email")}>
        {user.verified ? t("user.facts.verified") : t("user.facts.notVerified")}
      </Fact>
      <Fact term={t("user.facts.status")}>
        {user.disabled ? t("user.facts.disabled") : t("user.facts.active")}
      </Fact>
      <Fact term={t("user.facts.balance")}>
        {user.unlimited ? t("user.facts.unlimited") : formatCreditAmount(user.balance)}
      </Fact>
      <Fact term={t("user.facts.storageUsed")}>{storageText(user.storage_used_bytes)}</Fact>
      <Fact term={t("user.facts.stories")}>{formatNumber(user.stories)}</Fact>
      <Fact term={t("user.facts.sessions")}>{formatNumber(user.sessions)}</Fact>
      <Fact term={t("user.facts.lastSeen")}>
        {user.last_seen_at ? dateTimeText(user.last_seen_at) : t("user.facts.never")}
      </Fact>
      <Fact term={t("user.facts.capped")}>
        {user.capped ? t(`user.facts.cappedBy.${user.capped}`) : t("user.facts.no")}
      </Fact>
      <Fact term={t("user.facts.spentToday")}>{formatCreditAmount(user.spent_today)}</Fact>
      <Fact term={t("user.facts.spentThisMonth")}>{formatCreditAmount(user.spent_this_month)}</Fact>
      <Fact term={t("user.facts.dailyCap")}>{capFact(user.daily_cap)}</Fact>
      <Fact term={t("user.facts.monthlyCap")}>{capFact(user.monthly_cap)}</Fact>
    </dl>
  );
}

function CreditsForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation("admin");
  const adjust = useAdjustCredits(user.id);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const send = (sign: 1 | -1) => (event?: FormEvent) => {
    event?.preventDefault();
    setDone(null);
    const credits = parseCredits(amount);
    if (credits === null || credits === undefined || credits === 0) {
      setProblem(t("user.credits.invalid"));
      return;
    }
    if (reason.trim() === "") {
      setProblem(t("user.reasonRequired"));
      return;
    }
    setProblem(null);
    adjust.mutate(
      { amount: sign * credits, reason: reason.trim() },
      {
        onSuccess: () => {
          const amount = formatCreditAmount(credits);
          setDone(sign > 0 ? t("user.credits.granted", { amount }) : t("user.credits.tookBack", { amount }));
          setAmount("");
          setReason("");
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={send(1)} aria-labelledby="admin-credits-title" className="mt-6 border-t border-line pt-5">
      <h3 id="admin-credits-title" className="flex items-center gap-2 font-semibold">
        <Coins aria-hidden="true" className="size-4 text-accent-ink" />
        {t("user.credits.title")}
      </h3>
      <p className="mt-1 text-sm text-ink-muted">{t("user.credits.lede")}</p>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <TextField
          label={t("user.credits.amount")}
          inputMode="decimal"
          value={amount}
          onValueChange={setAmount}
        />
        <TextField
          label={t("user.credits.reason")}
          maxLength={ADMIN_REASON_MAX}
          value={reason}
          onValueChange={setReason}
        />
      </div>
      <FormAlert message={problem} className="mt-3" />
      <FormAlert message={done} tone="success" className="mt-3" />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={adjust.isPending && adjust.variables?.amount > 0}>
          {t("user.credits.grant")}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          loading={adjust.isPending && (adjust.variables?.amount ?? 0) < 0}
          icon={<Undo2 aria-hidden="true" className="size-4" />}
          onClick={() => send(-1)()}
        >
          {t("user.credits.takeBack")}
        </Button>
      </div>
    </form>
  );
}

function CapsForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation("admin");
  const update = useUpdateUser(user.id);
  const [daily, setDaily] = useState(capText(user.daily_cap));
  const [monthly, setMonthly] = useState(capText(user.monthly_cap));
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const dailyCap = parseCredits(daily);
    const monthlyCap = parseCredits(monthly);
    if (dailyCap === undefined || monthlyCap === undefined) {
      setProblem(t("user.caps.invalid"));
      return;
    }
    setProblem(null);
    update.mutate(
      { daily_cap: dailyCap, monthly_cap: monthlyCap },
      { onSuccess: () => setDone(t("caps.saved")), onError: (error) => setProblem(errorMessage(error)) },
    );
  };

  return (
    <form onSubmit={save} aria-labelledby="admin-user-caps-title" className="mt-6 border-t border-line pt-5">
      <h3 id="admin-user-caps-title" className="font-semibold">
        {t("user.caps.title")}
      </h3>
      <p className="mt-1 text-sm text-ink-muted">{t("user.caps.lede")}</p>
      <div className="mt-3 grid grid-cols-2 gap-3">
        <TextField
          label={t("user.facts.dailyCap")}
          inputMode="decimal"
          value={daily}
          onValueChange={setDaily}
        />
        <TextField
          label={t("user.facts.monthlyCap")}
          inputMode="decimal"
          value={monthly}
          onValueChange={setMonthly}
        />
      </div>
      <FormAlert message={problem} className="mt-3" />
      <FormAlert message={done} tone="success" className="mt-3" />
      <Button type="submit" variant="secondary" size="sm" className="mt-3" loading={update.isPending}>
        {t("caps.save")}
      </Button>
    </form>
  );
}

function Actions({ user }: { user: AdminUser }) {
  const { t } = useTranslation("admin");
  const update = useUpdateUser(user.id);
  const revoke = useRevokeSessions(user.id);
  const [message, setMessage] = useState<{ text: string; tone: "danger" | "success" } | null>(null);
  const change = (body: Parameters<typeof update.mutate>[0], done: string) =>
    update.mutate(body, {
      onSuccess: () => setMessage({ text: done, tone: "success" }),
      onError: (error) => setMessage({ text: errorMessage(error), tone: "danger" }),
    });

  return (
    <div className="mt-5">
      <div className="flex flex-wrap gap-2">
        {user.verified ? null : (
          <Button
            variant="secondary"
            size="sm"
            disabled={update.isPending}
            icon={<BadgeCheck aria-hidden="true" className="size-4" />}
            onClick={() => change({ verified: true }, t("user.actions.verified"))}
          >
            {t("user.actions.markVerified")}
          </Button>
        )}
        <Button
          variant={user.disabled ? "secondary" : "danger"}
          size="sm"
          disabled={update.isPending}
          icon={<Ban aria-hidden="true" className="size-4" />}
          onClick={() =>
            change(
              { disabled: !user.disabled },
              user.disabled ? t("user.actions.enabled") : t("user.actions.disabled"),
            )
          }
        >
          {user.disabled ? t("user.actions.enable") : t("user.actions.disable")}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          loading={revoke.isPending}
          icon={<LogOut aria-hidden="true" className="size-4" />}
          onClick={() =>
            revoke.mutate(undefined, {
              onSuccess: ({ revoked }) =>
                setMessage({ text: t("user.actions.signedOut", { count: revoked }), tone: "success" }),
              onError: (error) => setMessage({ text: errorMessage(error), tone: "danger" }),
            })
          }
        >
          {t("user.actions.revoke")}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={update.isPending}
          icon={<InfinityIcon aria-hidden="true" className="size-4" />}
          onClick={() =>
            change(
              { unlimited: !user.unlimited },
              user.unlimited ? t("user.actions.unlimitedOff") : t("user.actions.unlimitedOn"),
            )
          }
        >
          {user.unlimited ? t("user.actions.turnUnlimitedOff") : t("user.actions.setUnlimited")}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={update.isPending}
          icon={<ShieldCheck aria-hidden="true" className="size-4" />}
          onClick={() =>
            change(
              { role: user.role === "admin" ? "player" : "admin" },
              user.role === "admin" ? t("user.actions.adminRemoved") : t("user.actions.nowAdmin"),
            )
          }
        >
          {user.role === "admin" ? t("user.actions.removeAdmin") : t("user.actions.makeAdmin")}
        </Button>
      </div>
      <FormAlert message={message?.text ?? null} tone={message?.tone} className="mt-3" />
    </div>
  );
}

function ForceReset({ user }: { user: AdminUser }) {
  const { t } = useTranslation("admin");
  const reset = useForceReset(user.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ text: string; tone: "danger" | "success" } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate(reason.trim(), {
      onSuccess: ({ sessions_ended, mail_sent_to }) => {
        setOpen(false);
        setReason("");
        setMessage({
          text: t("user.reset.done", { count: sessions_ended, email: mail_sent_to }),
          tone: "success",
        });
      },
      onError: (error) => setMessage({ text: errorMessage(error), tone: "danger" }),
    });
  };

  return (
    <div>
      <h4 className="text-sm font-semibold">{t("user.reset.title")}</h4>
      <p className="mt-1 text-sm text-ink-muted">{t("user.reset.lede")}</p>
      {open ? (
        <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
          <TextField
            label={t("user.reset.reason")}
            maxLength={ADMIN_REASON_MAX}
            value={reason}
            onValueChange={setReason}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" loading={reset.isPending}>
              {t("user.reset.submit")}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
              {t("cancel")}
            </Button>
          </div>
        </form>
      ) : (
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          icon={<KeyRound aria-hidden="true" className="size-4" />}
          onClick={() => {
            setOpen(true);
            setMessage(null);
          }}
        >
          {t("user.reset.open")}
        </Button>
      )}
      <FormAlert message={message?.text ?? null} tone={message?.tone} className="mt-3" />
    </div>
  );
}

function DeleteAccount({ user, onDeleted }: { user: AdminUser; onDeleted: (message: string) => void }) {
  const { t } = useTranslation("admin");
  const remove = useDeleteUser(user.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") {
      setProblem(t("user.reasonRequired"));
      return;
    }
    if (confirm.trim().toLowerCase() !== user.email.toLowerCase()) {
      setProblem(t("user.delete.mismatch"));
      return;
    }
    setProblem(null);
    remove.mutate(
      { reason: reason.trim(), confirm_email: confirm.trim() },
      {
        onSuccess: (outcome) =>
          onDeleted(
            "deleting" in outcome
              ? t("user.delete.deleting", { email: user.email, count: outcome.kept_days })
              : t("user.delete.done", { email: user.email, count: outcome.ledger_rows_kept }),
          ),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <div className="mt-5">
      <h4 className="text-sm font-semibold">{t("user.delete.title")}</h4>
      <p className="mt-1 text-sm text-ink-muted">{t("user.delete.lede")}</p>
      <p className="mt-1 text-sm text-ink-muted">{t("user.delete.archived")}</p>
      {open ? (
        <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
          <TextField
            label={t("user.delete.reason")}
            maxLength={ADMIN_REASON_MAX}
            value={reason}
            onValueChange={setReason}
          />
          <TextField
            label={t("user.delete.confirm", { email: user.email })}
            value={confirm}
            onValueChange={setConfirm}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
          />
          <FormAlert message={problem} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" size="sm" loading={remove.isPending}>
              {t("user.delete.submit")}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
              {t("cancel")}
            </Button>
          </div>
        </form>
      ) : (
        <Button
          variant="danger"
          size="sm"
          className="mt-3"
          icon={<Trash2 aria-hidden="true" className="size-4" />}
          onClick={() => setOpen(true)}
        >
          {t("user.delete.open")}
        </Button>
      )}
    </div>
  );
}

function Danger({ user, onDeleted }: { user: AdminUser; onDeleted: (message: string) => void }) {
  const { t } = useTranslation("admin");
  return (
    <section aria-labelledby="admin-user-danger-title" className="mt-6 border-t border-line pt-5">
      <h3 id="admin-user-danger-title" className="font-semibold">
        {t("user.danger")}
      </h3>
      <div className="mt-3">
        <ForceReset user={user} />
        <DeleteAccount user={user} onDeleted={onDeleted} />
      </div>
    </section>
  );
}

export function UserDetail({ id, onDeleted }: { id: string; onDeleted: (message: string) => void }) {
  const { t } = useTranslation("admin");
  const account = useAdminUser(id);
  const user = account.data;
  return (
    <section aria-labelledby="admin-user-title" className={cardClasses}>
      {account.isPending ? (
        <p className="text-sm text-ink-muted">{t("user.loading")}</p>
      ) : account.isError || !user ? (
        <FormAlert message={errorMessage(account.error)} />
      ) : (
        <>
          <h2 id="admin-user-title" className="truncate text-lg font-semibold tracking-tight" data-user-text>
            {user.username}
          </h2>
          <p className="truncate text-sm text-ink-muted" data-user-text>
            {user.email}
          </p>
          <p className="mt-1 truncate font-mono text-xs text-ink-muted" data-user-text>
            {user.id}
          </p>
          <Facts user={user} />
          <Actions user={user} />
          <CreditsForm user={user} />
          <CapsForm user={user} />
          <Danger user={user} onDeleted={onDeleted} />
        </>
      )}
    </section>
  );
}
