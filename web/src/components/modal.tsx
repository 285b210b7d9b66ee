// The product's dialog frame: a Radix modal dialog (focus trap, Escape, focus return, screen-reader
// title and description) with one look for every form and confirmation. Radix's scroll lock injects a
// <style> element, which the strict CSP admits through the nonce set up in main.tsx.
//
// Docked, the same dialog is a side panel beside the story instead (non-modal): no overlay, no focus trap,
// no scroll lock, and a click outside leaves it open, so the story and its composer stay usable while it is
// open. Escape still closes it (unless the player is typing in another field, which may use Escape itself),
// focus goes into it on open and back to what opened it on close. On a phone it covers the screen below the
// top bar.
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { useTranslation } from "react-i18next";
import { iconButtonClasses } from "./button-classes";

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read with the title; pass null when the body says it all. */
  description: ReactNode | null;
  icon?: ReactNode;
  /** Beside the title, outside its accessible name (e.g. what the panel's content costs in tokens). */
  titleAside?: ReactNode;
  /** While busy, Escape, an outside click and the close button do nothing. */
  busy?: boolean;
  children: ReactNode;
  /** lg: a wide working dialog (the picture editor). */
  size?: "sm" | "md" | "lg";
  /** A non-modal side panel on the right, below the top bar, instead of a centred modal. */
  docked?: boolean;
}

const centredClasses =
  "fixed top-1/2 left-1/2 z-[60] flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-3xl border border-line bg-surface p-6 text-ink shadow-lifted outline-none motion-safe:animate-fade-in sm:p-8";

/** The docked panel's width on a desktop: a page beside it keeps this much room free for it. */
export const DOCKED_PANEL_WIDTH = "lg:w-[380px] xl:w-[440px]";

// Above the page and the sidebar (z-30), below the top bar's menus, the banners and any modal (z-60 and up).
const dockedClasses = `fixed inset-x-0 top-[65px] bottom-0 z-[45] flex flex-col bg-surface text-ink outline-none motion-safe:animate-fade-in lg:inset-s-auto lg:border-s lg:border-line lg:shadow-lifted ${DOCKED_PANEL_WIDTH}`;

/** A field outside the panel that has the focus: Escape there is the field's own (e.g. cancelling an edit). */
function typingOutside(panel: HTMLElement | null): boolean {
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || panel?.contains(focused)) return false;
  return focused.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(focused.tagName);
}

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  icon,
  titleAside,
  busy = false,
  children,
  size = "md",
  docked = false,
}: ModalProps) {
  const { t } = useTranslation("common");
  const content = useRef<HTMLDivElement>(null);
  /** What had the focus when the docked panel opened: it gets it back on close. */
  const opener = useRef<HTMLElement | null>(null);
  const dockedHandlers = {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      // Only when the focus went down with the panel: a player who moved on (the composer, another panel's
      // button) keeps their place.
      const focused = document.activeElement;
      if (!focused || focused === document.body || content.current?.contains(focused)) {
        opener.current?.focus();
      }
      opener.current = null;
    },
    onInteractOutside: (event: Event) => event.preventDefault(),
    onEscapeKeyDown: (event: KeyboardEvent) => {
      if (typingOutside(content.current)) event.preventDefault();
    },
  };
  const close = (
    <Dialog.Close
      aria-label={t("modal.close")}
      disabled={busy}
      className={`${iconButtonClasses} disabled:opacity-50`}
    >
      <X aria-hidden="true" className="size-5" />
    </Dialog.Close>
  );
  return (
    <Dialog.Root
      open={open}
      modal={!docked}
      onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}
    >
      <Dialog.Portal>
        {docked ? null : (
          <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/55 backdrop-blur-sm motion-safe:animate-fade-in" />
        )}
        <Dialog.Content
          ref={content}
          className={
            docked
              ? dockedClasses
              : `${centredClasses} ${size === "sm" ? "max-w-md" : size === "lg" ? "max-w-5xl" : "max-w-lg"}`
          }
          {...(docked ? dockedHandlers : {})}
          {...(description === null ? { "aria-describedby": undefined } : {})}
        >
          {docked ? (
            <>
              {/* The title and Close stay in sight while the rest scrolls. */}
              <div className="flex shrink-0 items-center gap-3 border-b border-line px-5 py-3">
                {icon ? (
                  <div
                    aria-hidden="true"
                    className="grid size-9 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-ink"
                  >
                    {icon}
                  </div>
                ) : null}
                <div className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2">
                  <Dialog.Title className="text-lg font-bold tracking-tight">{title}</Dialog.Title>
                  {titleAside}
                </div>
                {close}
              </div>
              <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 pt-4 pb-6">
                {description !== null ? (
                  <Dialog.Description className="mb-5 text-sm leading-6 text-ink-muted">
                    {description}
                  </Dialog.Description>
                ) : null}
                {children}
              </div>
            </>
          ) : (
            <>
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
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <Dialog.Title className="text-xl font-bold tracking-tight">{title}</Dialog.Title>
                    {titleAside}
                  </div>
                  {description !== null ? (
                    <Dialog.Description className="mt-2 text-sm leading-6 text-ink-muted">
                      {description}
                    </Dialog.Description>
                  ) : null}
                </div>
                <div className="-mt-2 -me-2">{close}</div>
              </div>
              <div className="mt-6">{children}</div>
            </>
          )}
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
