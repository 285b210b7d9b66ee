// The sidebar on a phone: a drawer over the content, opened from the top bar. Radix Dialog gives it
// focus on open, Escape, outside-click and the focus return. It is non-modal because a modal Radix dialog
// locks scrolling by injecting a <style> element, which our Content-Security-Policy refuses; the backdrop
// below covers the page instead.
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { iconButtonClasses } from "../../components/button-classes";
import { Wordmark } from "../../components/wordmark";
import type { StoredUser } from "../../lib/storage";
import type { NavItem } from "../../shared/views";
import { NavList, ProfileItem } from "./sidebar";

interface NavDrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  activeItem: NavItem;
  user: StoredUser | null;
  onSelect: (item: NavItem) => void;
  onProfile: () => void;
  /** The button that opened the drawer (it lives in the top bar, outside the dialog): focus returns there. */
  opener: RefObject<HTMLButtonElement | null>;
}

export function NavDrawer({
  open,
  onOpenChange,
  activeItem,
  user,
  onSelect,
  onProfile,
  opener,
}: NavDrawerProps) {
  const { t } = useTranslation("common");
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <Dialog.Portal>
        {open ? (
          <div
            aria-hidden="true"
            className="fixed inset-0 z-50 bg-black/50 backdrop-blur-sm motion-safe:animate-fade-in md:hidden"
          />
        ) : null}
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 inset-s-0 z-50 flex w-72 max-w-[85vw] flex-col border-e border-line bg-surface shadow-lifted outline-none motion-safe:animate-fade-in md:hidden"
          onInteractOutside={() => onOpenChange(false)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            opener.current?.focus();
          }}
        >
          <div className="flex h-[65px] items-center justify-between border-b border-line px-4">
            <Wordmark />
            <Dialog.Close aria-label={t("nav.close")} className={iconButtonClasses}>
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">{t("nav.title")}</Dialog.Title>
          <nav aria-label={t("nav.main")} className="flex-1 overflow-y-auto p-3">
            <NavList activeItem={activeItem} collapsed={false} onSelect={onSelect} />
          </nav>
          <div className="border-t border-line p-3">
            <ProfileItem user={user} collapsed={false} onOpen={onProfile} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
