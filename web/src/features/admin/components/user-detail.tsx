// One account in the admin console: what it is (verified, disabled, role, balance, storage, stories,
// sessions, last seen, spending and caps) and what an administrator may do to it. Each action answers with
// the account as it is now, which replaces what is shown.
import { ADMIN_REASON_MAX, type AdminUser } from "@storyverse/contract/admin";
import { formatCredits } from "@storyverse/contract/credits";
import { formatStorageBytes } from "@storyverse/contract/media";
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
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { useAdjustCredits, useAdminUser, useRevokeSessions, useUpdateUser } from "../api/admin-api";
import { useDeleteUser, useForceReset } from "../api/admin-operations";
import { capText, cardClasses, parseCredits } from "./admin-format";

const dateTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "Never";

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-ink-muted uppercase">{term}</dt>
      <dd className="mt-1 text-sm font-semibold break-words tabular-nums">{children}</dd>
    </div>
  );
}

const capFact = (cap: number | null) => (cap === null ? "Default" : formatCredits(cap));

function Facts({ user }: { user: AdminUser }) {
  return (
    <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-3">
      <Fact term="Role">{user.role === "admin" ? "Admin" : "Player"}</Fact>
      <Fact term="Email">{user.verified ? "Verified" : "Not verified"}</Fact>
      <Fact term="Status">{user.disabled ? "Disabled" : "Active"}</Fact>
      <Fact term="Balance">{user.unlimited ? "Unlimited" : formatCredits(user.balance)}</Fact>
      <Fact term="Storage used">{formatStorageBytes(user.storage_used_bytes)}</Fact>
      <Fact term="Stories">{user.stories}</Fact>
      <Fact term="Signed-in devices">{user.sessions}</Fact>
      <Fact term="Last seen">{dateTime(user.last_seen_at)}</Fact>
      <Fact term="Capped">{user.capped ? `Yes (${user.capped})` : "No"}</Fact>
      <Fact term="Spent today">{formatCredits(user.spent_today)}</Fact>
      <Fact term="Spent this month">{formatCredits(user.spent_this_month)}</Fact>
      <Fact term="Daily cap">{capFact(user.daily_cap)}</Fact>
      <Fact term="Monthly cap">{capFact(user.monthly_cap)}</Fact>
    </dl>
  );
}

function CreditsForm({ user }: { user: AdminUser }) {
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
      setProblem("Enter a number of credits above 0, with at most one decimal.");
      return;
    }
    if (reason.trim() === "") {
      setProblem("A reason is required.");
      return;
    }
    setProblem(null);
    adjust.mutate(
      { amount: sign * credits, reason: reason.trim() },
      {
        onSuccess: () => {
          setDone(sign > 0 ? `Granted ${formatCredits(credits)}.` : `Took back ${formatCredits(credits)}.`);
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
        Credits
      </h3>
      <p className="mt-1 text-sm text-ink-muted">
        The player sees each change and its reason in their credit history.
      </p>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <TextField label="Credits" inputMode="decimal" value={amount} onValueChange={setAmount} />
        <TextField label="Reason" maxLength={ADMIN_REASON_MAX} value={reason} onValueChange={setReason} />
      </div>
      <FormAlert message={problem} className="mt-3" />
      <FormAlert message={done} tone="success" className="mt-3" />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={adjust.isPending && adjust.variables?.amount > 0}>
          Grant
        </Button>
        <Button
          variant="secondary"
          size="sm"
          loading={adjust.isPending && (adjust.variables?.amount ?? 0) < 0}
          icon={<Undo2 aria-hidden="true" className="size-4" />}
          onClick={() => send(-1)()}
        >
          Take back
        </Button>
      </div>
    </form>
  );
}

function CapsForm({ user }: { user: AdminUser }) {
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
      setProblem("A cap is a number of credits with at most one decimal, or empty for the default.");
      return;
    }
    setProblem(null);
    update.mutate(
      { daily_cap: dailyCap, monthly_cap: monthlyCap },
      { onSuccess: () => setDone("Caps saved."), onError: (error) => setProblem(errorMessage(error)) },
    );
  };

  return (
    <form onSubmit={save} aria-labelledby="admin-user-caps-title" className="mt-6 border-t border-line pt-5">
      <h3 id="admin-user-caps-title" className="font-semibold">
        This account's caps
      </h3>
      <p className="mt-1 text-sm text-ink-muted">In credits. Leave empty to use the install's default.</p>
      <div className="mt-3 grid grid-cols-2 gap-3">
        <TextField label="Daily cap" inputMode="decimal" value={daily} onValueChange={setDaily} />
        <TextField label="Monthly cap" inputMode="decimal" value={monthly} onValueChange={setMonthly} />
      </div>
      <FormAlert message={problem} className="mt-3" />
      <FormAlert message={done} tone="success" className="mt-3" />
      <Button type="submit" variant="secondary" size="sm" className="mt-3" loading={update.isPending}>
        Save caps
      </Button>
    </form>
  );
}

function Actions({ user }: { user: AdminUser }) {
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
            onClick={() => change({ verified: true }, "Email marked verified.")}
          >
            Mark verified
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
              user.disabled ? "Account enabled." : "Account disabled: it was signed out everywhere.",
            )
          }
        >
          {user.disabled ? "Enable account" : "Disable account"}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          loading={revoke.isPending}
          icon={<LogOut aria-hidden="true" className="size-4" />}
          onClick={() =>
            revoke.mutate(undefined, {
              onSuccess: ({ revoked }) =>
                setMessage({
                  text: `Signed out of ${revoked} ${revoked === 1 ? "device" : "devices"}.`,
                  tone: "success",
                }),
              onError: (error) => setMessage({ text: errorMessage(error), tone: "danger" }),
            })
          }
        >
          Revoke sessions
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={update.isPending}
          icon={<InfinityIcon aria-hidden="true" className="size-4" />}
          onClick={() =>
            change(
              { unlimited: !user.unlimited },
              user.unlimited ? "Unlimited credits off." : "Unlimited credits on.",
            )
          }
        >
          {user.unlimited ? "Turn unlimited off" : "Set unlimited"}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={update.isPending}
          icon={<ShieldCheck aria-hidden="true" className="size-4" />}
          onClick={() =>
            change(
              { role: user.role === "admin" ? "player" : "admin" },
              user.role === "admin" ? "Admin role removed." : "Now an administrator.",
            )
          }
        >
          {user.role === "admin" ? "Remove admin" : "Make admin"}
        </Button>
      </div>
      <FormAlert message={message?.text ?? null} tone={message?.tone} className="mt-3" />
    </div>
  );
}

function ForceReset({ user }: { user: AdminUser }) {
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
          text: `Signed out of ${sessions_ended} ${sessions_ended === 1 ? "device" : "devices"}. A link to set a new password was mailed to ${mail_sent_to}.`,
          tone: "success",
        });
      },
      onError: (error) => setMessage({ text: errorMessage(error), tone: "danger" }),
    });
  };

  return (
    <div>
      <h4 className="text-sm font-semibold">Force a password reset</h4>
      <p className="mt-1 text-sm text-ink-muted">
        The old password stops working, the account is signed out everywhere, and a reset link is mailed.
      </p>
      {open ? (
        <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
          <TextField
            label="Reason (optional)"
            maxLength={ADMIN_REASON_MAX}
            value={reason}
            onValueChange={setReason}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" loading={reset.isPending}>
              Reset password and sign out
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
              Cancel
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
          Force password reset
        </Button>
      )}
      <FormAlert message={message?.text ?? null} tone={message?.tone} className="mt-3" />
    </div>
  );
}

function DeleteAccount({ user, onDeleted }: { user: AdminUser; onDeleted: (message: string) => void }) {
  const remove = useDeleteUser(user.id);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") {
      setProblem("A reason is required.");
      return;
    }
    if (confirm.trim().toLowerCase() !== user.email.toLowerCase()) {
      setProblem("Type the account's email exactly to confirm.");
      return;
    }
    setProblem(null);
    remove.mutate(
      { reason: reason.trim(), confirm_email: confirm.trim() },
      {
        onSuccess: ({ ledger_rows_kept }) =>
          onDeleted(
            `${user.email} was deleted with everything it owned. ${ledger_rows_kept} ledger ${ledger_rows_kept === 1 ? "row is" : "rows are"} kept, anonymised, for accounting.`,
          ),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <div className="mt-5">
      <h4 className="text-sm font-semibold">Delete this account</h4>
      <p className="mt-1 text-sm text-ink-muted">
        Removes its stories, pictures, clips and everything else it owns, and signs it out everywhere. Only
        the ledger's money facts stay, naming no one. This cannot be undone.
      </p>
      {open ? (
        <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
          <TextField
            label="Reason for deleting"
            maxLength={ADMIN_REASON_MAX}
            value={reason}
            onValueChange={setReason}
          />
          <TextField
            label={`Type ${user.email} to confirm`}
            value={confirm}
            onValueChange={setConfirm}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
          />
          <FormAlert message={problem} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" size="sm" loading={remove.isPending}>
              Delete account for good
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
              Cancel
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
          Delete account
        </Button>
      )}
    </div>
  );
}

function Danger({ user, onDeleted }: { user: AdminUser; onDeleted: (message: string) => void }) {
  return (
    <section aria-labelledby="admin-user-danger-title" className="mt-6 border-t border-line pt-5">
      <h3 id="admin-user-danger-title" className="font-semibold">
        Password and account
      </h3>
      <div className="mt-3">
        <ForceReset user={user} />
        <DeleteAccount user={user} onDeleted={onDeleted} />
      </div>
    </section>
  );
}

export function UserDetail({ id, onDeleted }: { id: string; onDeleted: (message: string) => void }) {
  const account = useAdminUser(id);
  const user = account.data;
  return (
    <section aria-labelledby="admin-user-title" className={cardClasses}>
      {account.isPending ? (
        <p className="text-sm text-ink-muted">Loading the account…</p>
      ) : account.isError || !user ? (
        <FormAlert message={errorMessage(account.error)} />
      ) : (
        <>
          <h2 id="admin-user-title" className="truncate text-lg font-semibold tracking-tight">
            {user.username}
          </h2>
          <p className="truncate text-sm text-ink-muted">{user.email}</p>
          <p className="mt-1 truncate font-mono text-xs text-ink-muted">{user.id}</p>
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
