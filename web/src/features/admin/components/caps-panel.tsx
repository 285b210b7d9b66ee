// Caps: the default daily and monthly caps of every account without its own, and the install's daily cap,
// in credits (empty: none); today's install spending, and who is at a cap now.
import { type FormEvent, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { TextField } from "../../../components/text-field";
import { formatCreditAmount } from "../../../i18n/format";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminCaps, useSetCaps } from "../api/admin-api";
import { capText, cardClasses, parseCredits } from "./admin-format";

function CapsForm({ daily, monthly, install }: { daily: string; monthly: string; install: string }) {
  const { t } = useTranslation("admin");
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
      setProblem(t("caps.invalid"));
      return;
    }
    setProblem(null);
    setCaps.mutate(
      caps as { daily_default: number | null; monthly_default: number | null; install_daily: number | null },
      {
        onSuccess: () => setDone(t("caps.saved")),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <form onSubmit={save} className="mt-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <TextField
          label={t("caps.dailyDefault")}
          inputMode="decimal"
          value={values.daily}
          onValueChange={(daily) => setValues((v) => ({ ...v, daily }))}
        />
        <TextField
          label={t("caps.monthlyDefault")}
          inputMode="decimal"
          value={values.monthly}
          onValueChange={(monthly) => setValues((v) => ({ ...v, monthly }))}
        />
        <TextField
          label={t("caps.installDaily")}
          inputMode="decimal"
          value={values.install}
          onValueChange={(install) => setValues((v) => ({ ...v, install }))}
        />
      </div>
      <FormAlert message={problem} className="mt-3" />
      <FormAlert message={done} tone="success" className="mt-3" />
      <Button type="submit" size="sm" className="mt-4" loading={setCaps.isPending}>
        {t("caps.save")}
      </Button>
    </form>
  );
}

export function CapsPanel() {
  const { t } = useTranslation("admin");
  const caps = useAdminCaps();
  const data = caps.data;
  return (
    <section aria-labelledby="admin-caps-title" className={cardClasses}>
      <h2 id="admin-caps-title" className="text-lg font-semibold tracking-tight">
        {t("caps.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("caps.lede")}</p>
      {caps.isPending ? (
        <p className="mt-4 text-sm text-ink-muted">{t("caps.loading")}</p>
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
            <Trans
              t={t}
              i18nKey="caps.spentToday"
              values={{ credits: formatCreditAmount(data.install_spent_today) }}
              components={{ strong: <span className="font-semibold tabular-nums" /> }}
            />
          </p>
          <h3 className="mt-6 font-semibold">{t("caps.atCap")}</h3>
          {data.capped_users.length === 0 ? (
            <p className="mt-2 text-sm text-ink-muted">{t("caps.nobody")}</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-1 text-sm">
              {data.capped_users.map((user) => (
                <li key={user.id} className="flex flex-wrap gap-x-2">
                  <span className="font-semibold" data-user-text>
                    {user.email}
                  </span>
                  <span className="text-ink-muted">
                    {t(user.cap === "daily" ? "caps.dailyCapOf" : "caps.monthlyCapOf", {
                      limit: formatCreditAmount(user.limit),
                    })}
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
