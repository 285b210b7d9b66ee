import { CircleAlert, CircleCheck, Mail } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { preloadNewsletter, useSubscribeNewsletter } from "../api/use-subscribe-newsletter";

/** What the box says under the field: our own words, or the server's (shown through the catalogue). */
type Status = { kind: "success" | "error"; text: string; fromServer: boolean } | null;

export function EmailCapture() {
  const { t } = useTranslation("landing");
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<Status>(null);
  const subscribe = useSubscribeNewsletter();
  const inputId = useId();
  const statusId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() === "") {
      setStatus({ kind: "error", text: t("email.required"), fromServer: false });
      return;
    }
    setStatus(null);
    subscribe.mutate(email, {
      onSuccess: (response) => {
        setStatus({ kind: "success", text: translateServerMessage(response.message), fromServer: true });
        setEmail("");
      },
      onError: (error) =>
        setStatus({ kind: "error", text: translateServerMessage(errorMessage(error)), fromServer: true }),
    });
  };

  const invalid = status?.kind === "error";

  return (
    <div className="bg-primary-gradient mt-16 rounded-3xl p-px shadow-lifted">
      <div className="grid grid-cols-1 gap-8 rounded-[23px] bg-surface p-6 sm:p-10 lg:grid-cols-[1fr_1.1fr] lg:items-center">
        <div>
          <span className="grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent-ink">
            <Mail aria-hidden="true" className="size-6" />
          </span>
          <h3 className="mt-6 text-2xl font-semibold tracking-tight sm:text-3xl">{t("email.title")}</h3>
          <p className="mt-3 leading-7 text-ink-muted">{t("email.lede")}</p>
        </div>
        <form noValidate onSubmit={onSubmit} aria-label={t("email.form")}>
          <label htmlFor={inputId} className="text-sm font-medium">
            {t("email.label")}
          </label>
          <div className="mt-2 flex flex-col gap-3 sm:flex-row">
            <input
              id={inputId}
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              placeholder={t("email.placeholder")}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              onFocus={preloadNewsletter}
              aria-invalid={invalid || undefined}
              aria-describedby={statusId}
              className="h-12 min-w-0 flex-1 rounded-xl border border-line bg-canvas px-4 text-base text-ink shadow-inner transition duration-200 outline-none placeholder:text-ink-muted/80 focus:border-accent-500 focus-visible:outline-2 focus-visible:outline-offset-2 aria-invalid:border-danger"
            />
            <Button type="submit" loading={subscribe.isPending}>
              {t("email.submit")}
            </Button>
          </div>
          <p
            id={statusId}
            role="status"
            className={`mt-3 flex min-h-6 items-start gap-2 text-sm ${
              status?.kind === "error" ? "text-danger" : "text-success"
            }`}
          >
            {status?.kind === "success" ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            ) : null}
            {status?.kind === "error" ? (
              <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            ) : null}
            {status?.fromServer ? <span data-server-text>{status.text}</span> : status?.text}
          </p>
        </form>
      </div>
    </div>
  );
}
