// The Credits page's loading and error states, shared by its cards.
import { CircleAlert, RotateCw } from "lucide-react";
import { buttonClasses } from "../../../components/button-classes";
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

/** Spec §8 "Load": 'Failed to load data: {message}', with a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-2xl border border-danger/30 bg-danger/10 p-4"
    >
      <p className="flex items-start gap-2 text-sm leading-6 text-danger">
        <CircleAlert aria-hidden="true" className="mt-1 size-4 shrink-0" />
        <span>Failed to load data: {errorMessage(error)}</span>
      </p>
      <button type="button" onClick={onRetry} className={buttonClasses("secondary", "sm")}>
        <RotateCw aria-hidden="true" className="size-4" />
        Try again
      </button>
    </div>
  );
}

/** The frame every card on the page shares. */
export const cardClasses = "rounded-3xl border border-line bg-surface p-6 shadow-soft";
