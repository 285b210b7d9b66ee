import { CircleAlert, CircleCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../../components/button";
import type { AvailabilityState } from "./use-availability";

/** The line under a register field: checking, or the answer in green ('available') or red. */
export function AvailabilityHint({ state }: { state: AvailabilityState }) {
  const { t } = useTranslation("accounts");
  // Always rendered, so screen readers hear each new answer in the polite live region.
  return (
    <p aria-live="polite" className="flex min-h-5 items-start gap-2">
      {state.status === "checking" ? (
        <span className="inline-flex items-center gap-2 text-ink-muted">
          <Spinner />
          {t("availability.checking")}
        </span>
      ) : null}
      {state.status === "done" ? (
        <span
          data-server-text
          data-tone={state.tone}
          className={`inline-flex items-start gap-2 ${state.tone === "success" ? "text-success" : "text-danger"}`}
        >
          {state.tone === "success" ? (
            <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          ) : (
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          )}
          {state.text}
        </span>
      ) : null}
    </p>
  );
}
