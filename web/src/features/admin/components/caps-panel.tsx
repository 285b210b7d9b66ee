// Caps: the default daily and monthly caps of every account without its own, and the install's daily cap,
// in credits (empty: none); today's install spending, and who is at a cap now.
import { formatCredits } from "@storyverse/contract/credits";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminCaps, useSetCaps } from "../api/admin-api";
import { capText, cardClasses, parseCredits } from "./admin-format";

function CapsForm({ daily, monthly, install }: { daily: string; monthly: string; install: string }) {
  const setCaps = useSetCaps();
  const [values, setValues] = useState({ daily, monthly, install });
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const caps = {
      daily_default: parseCredits(values.daily),
      monthly_default: parseCredits(values.monthly),
      install_daily: parseCredits(values.install),
    };
    if (Object.values(caps).some((value) => value === undefined)) {
      setProblem("A cap is a number of credits with at most one decimal, or empty for none.");
      return;
    }
    setProblem(null);
    setCaps.mutate(
      caps as { daily_default: number | null; monthly_default: number | null; install_daily: number | null },
      {
        onSuccess: () => setDone("Caps saved."),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={save} className="mt-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <TextField
          label="Daily cap per account"
          inputMode="decimal"
          value={values.daily}
          onValueChange={(daily) => setValues((v) => ({ ...v, daily }))}
        />
        <TextField
          label="Monthly cap per account"
          inputMode="decimal"
          value={values.monthly}
          onValueChange={(monthly) => setValues((v) => ({ ...v, monthly }))}
        />
        <TextField
          label="Install's daily cap"
          inputMode="decimal"
          value={values.install}
          onValueChange={(install) => setValues((v) => ({ ...v, install }))}
        />
      </div>
      <FormAlert message={problem} className="mt-3" />
      <FormAlert message={done} tone="success" className="mt-3" />
      <Button type="submit" size="sm" className="mt-4" loading={setCaps.isPending}>
        Save caps
      </Button>
    </form>
  );
}

export function CapsPanel() {
  const caps = useAdminCaps();
  const data = caps.data;
  return (
    <section aria-labelledby="admin-caps-title" className={cardClasses}>
      <h2 id="admin-caps-title" className="text-lg font-semibold tracking-tight">
        Spending caps
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Credits spent per UTC day or month, net of refunds. Leave a cap empty for none; an account's own caps
        override the defaults. A player at a cap is refused before anything is charged.
      </p>
      {caps.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">Loading caps…</p>
      ) : caps.isError || !data ? (
        <FormAlert message={errorMessage(caps.error)} className="mt-4" />
      ) : (
        <>
          <CapsForm
            daily={capText(data.daily_default)}
            monthly={capText(data.monthly_default)}
            install={capText(data.install_daily)}
          />
          <p className="mt-6 text-sm">
            Spent by everyone today:{" "}
            <span className="font-semibold tabular-nums">{formatCredits(data.install_spent_today)}</span>
          </p>
          <h3 className="mt-6 font-semibold">At a cap now</h3>
          {data.capped_users.length === 0 ? (
            <p className="mt-2 text-sm text-ink-muted">Nobody.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-1 text-sm">
              {data.capped_users.map((user) => (
                <li key={user.id} className="flex flex-wrap gap-x-2">
                  <span className="font-semibold">{user.email}</span>
                  <span className="text-ink-muted">
                    {user.cap} cap of {formatCredits(user.limit)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
