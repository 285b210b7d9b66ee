// The avatar button and its menu: Manage Credits, the admin console (administrators only) and Logout. Radix gives it roving focus,
// typeahead, Escape and the menu roles. It is not modal: a modal menu locks page scroll by injecting a
// <style> element, which the app's Content-Security-Policy (style-src 'self') refuses.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Coins, LogOut, ShieldCheck } from "lucide-react";
import type { StoredUser } from "../../lib/storage";
import { avatarLetter, UserAvatar } from "./user-avatar";

const itemClasses =
  "flex h-11 cursor-pointer items-center gap-3 rounded-xl px-3 text-sm font-medium text-ink outline-none " +
  "transition-colors duration-150 data-highlighted:bg-surface-2 data-highlighted:text-ink";

interface AccountMenuProps {
  user: StoredUser | null;
  onManageCredits: () => void;
  /** Present for an administrator: opens the admin console. */
  onOpenAdmin?: (() => void) | undefined;
  onLogout: () => void;
}

export function AccountMenu({ user, onManageCredits, onOpenAdmin, onLogout }: AccountMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label="Account menu"
        className="grid size-10 shrink-0 place-items-center rounded-full transition duration-200 hover:brightness-110 data-[state=open]:ring-2 data-[state=open]:ring-accent-400"
      >
        <UserAvatar letter={avatarLetter(user)} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={12}
          className="z-[60] w-64 rounded-2xl border border-line bg-surface p-2 text-ink shadow-lifted motion-safe:animate-fade-in"
        >
          <div className="flex items-center gap-3 px-3 py-2">
            <UserAvatar letter={avatarLetter(user)} />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold">{user?.username}</p>
              <p className="truncate text-xs text-ink-muted">{user?.email}</p>
            </div>
          </div>
          <DropdownMenu.Separator className="my-2 h-px bg-line" />
          <DropdownMenu.Item className={itemClasses} onSelect={onManageCredits}>
            <Coins aria-hidden="true" className="size-4 text-accent-ink" />
            Manage Credits
          </DropdownMenu.Item>
          {onOpenAdmin ? (
            <DropdownMenu.Item className={itemClasses} onSelect={onOpenAdmin}>
              <ShieldCheck aria-hidden="true" className="size-4 text-accent-ink" />
              Admin console
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className={itemClasses} onSelect={onLogout}>
            <LogOut aria-hidden="true" className="size-4 text-ink-muted" />
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
