// The product's dialog frame: a Radix modal dialog (focus trap, Escape, focus return, screen-reader
// title and description) with one look for every form and confirmation. Radix's scroll lock injects a
// <style> element, which the strict CSP admits through the nonce set up in main.tsx.
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { iconButtonClasses } from "./button-classes";

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read with the title; pass null when the body says it all. */
  description: ReactNode | null;
  icon?: ReactNode;
  /** While busy, Escape, an outside click and the close button do nothing. */
  busy?: boolean;
  children: ReactNode;
  size?: "sm" | "md";
}

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  icon,
  busy = false,
  children,
  size = "md",
}: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/55 backdrop-blur-sm motion-safe:animate-fade-in" />
        <Dialog.Content
          className={`fixed top-1/2 left-1/2 z-[60] flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-3xl border border-line bg-surface p-6 text-ink shadow-lifted outline-none motion-safe:animate-fade-in sm:p-8 ${
            size === "sm" ? "max-w-md" : "max-w-lg"
          }`}
          {...(description === null ? { "aria-describedby": undefined } : {})}
        >
          <div className="flex items-start gap-4">
            {icon ? (
              <div
                aria-hidden="true"
                className="grid size-11 shrink-0 place-items-center rounded-2xl bg-accent-soft text-accent-ink"
              >
                {icon}
              </div>
            ) : null}
            <div className="min-w-0 flex-1 pt-1">
              <Dialog.Title className="text-xl font-bold tracking-tight">{title}</Dialog.Title>
              {description !== null ? (
                <Dialog.Description className="mt-2 text-sm leading-6 text-ink-muted">
                  {description}
                </Dialog.Description>
              ) : null}
            </div>
            <Dialog.Close
              aria-label="Close"
              disabled={busy}
              className={`${iconButtonClasses} -mt-2 -mr-2 disabled:opacity-50`}
            >
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <div className="mt-6">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The row of buttons at the foot of a dialog: Cancel on the left of the primary action (stacked on a phone). */
export function ModalActions({ children }: { children: ReactNode }) {
  return <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{children}</div>;
}

export const ModalClose = Dialog.Close;
