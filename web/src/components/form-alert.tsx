// The message a form shows when it cannot go on: announced as it appears (role="alert"). The message is often
// the server's (an error's `detail`, a contract rule's words): shown in the interface's language when the
// catalogue knows it (decision 0155).
import { CircleAlert, CircleCheck } from "lucide-react";
import { translateServerMessage } from "../i18n/server-messages";

interface FormAlertProps {
  message: string | null;
  tone?: "danger" | "success";
  /** Classes for the message itself (e.g. spacing), which only exists while there is a message. */
  className?: string;
}

export function FormAlert({ message, tone = "danger", className = "" }: FormAlertProps) {
  // The live region stays in the page so screen readers pick up a message the moment it is set.
  return (
    <div role={tone === "danger" ? "alert" : "status"}>
      {message ? (
        <p
          className={`flex items-start gap-3 rounded-xl border px-4 py-3 text-sm leading-6 ${className} ${
            tone === "danger"
              ? "border-danger/30 bg-danger/10 text-danger"
              : "border-success/30 bg-success/10 text-success"
          }`}
        >
          {tone === "danger" ? (
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          ) : (
            <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          )}
          <span data-server-text>{translateServerMessage(message)}</span>
        </p>
      ) : null}
    </div>
  );
}
