// The Credits page's loading and error states, shared by its cards.
import { CircleAlert, RotateCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";

/** A grey bar where text will be; the page says "Loading" once, for screen readers, in its status line. */
export function Skeleton({ className = "" }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`block rounded-lg bg-surface-2 motion-safe:animate-pulse ${className}`}
    />
  );
}

/** What the Credits card says when the account's details cannot be read. */
export const accountDataError = (): string => i18n.t("credits:cardStates.accountDataError");

/**
 * A card that could not load, with a way to try again: 'Failed to load data: {message}', or the card's
 * own words when it has them.
 */
export function LoadError({
  error,
  onRetry,
  message,
}: {
  error: unknown;
  onRetry: () => void;
  message?: string;
}) {
  const { t } = useTranslation("credits");
  const text =
    message ?? t("cardStates.loadFailed", { message: translateServerMessage(errorMessage(error)) });
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-2xl border border-danger/30 bg-danger/10 p-4"
    >
      <p className="flex items-start gap-2 text-sm leading-6 text-danger">
        <CircleAlert aria-hidden="true" className="mt-1 size-4 shrink-0" />
        <span data-server-text>{text}</span>
      </p>
      <Button onClick={onRetry} variant="secondary" size="sm">
        <RotateCw aria-hidden="true" className="size-4" />
        {t("cardStates.tryAgain")}
      </Button>
    </div>
  );
}

/** The frame every card on the page shares. */
export const cardClasses = "rounded-3xl border border-line bg-surface p-6 shadow-soft";
