// The left sidebar: Stories, Studio, Gallery, Credits, Updates, and the profile item, which
// opens credit management. Beside the content from 768 px (64 px collapsed, 256 px expanded); on a phone
// the same list opens as a drawer over the content (see nav-drawer.tsx).
import { ChevronsLeft, ChevronsRight } from "lucide-react";
import type { StoredUser } from "../../lib/storage";
import type { NavItem } from "../views";
import { SIDEBAR_ITEMS } from "./nav-items";
import { avatarLetter, UserAvatar } from "./user-avatar";

interface NavListProps {
  activeItem: NavItem;
  collapsed: boolean;
  onSelect: (item: NavItem) => void;
}

export function NavList({ activeItem, collapsed, onSelect }: NavListProps) {
  return (
    <ul className="flex flex-col gap-1">
      {SIDEBAR_ITEMS.map(({ key, label, icon: Icon }) => {
        const active = key === activeItem;
        return (
          <li key={key}>
            <button
              type="button"
              onClick={() => onSelect(key)}
              aria-current={active ? "page" : undefined}
              title={collapsed ? label : undefined}
              className={`group flex h-11 w-full items-center gap-3 rounded-xl text-sm font-medium transition duration-200 ${
                collapsed ? "justify-center px-0" : "px-3"
              } ${
                active ? "bg-accent-soft text-accent-ink" : "text-ink-muted hover:bg-surface-2 hover:text-ink"
              }`}
            >
              <Icon aria-hidden="true" className="size-5 shrink-0" />
              <span className={collapsed ? "sr-only" : "truncate"}>{label}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

interface ProfileItemProps {
  user: StoredUser | null;
  collapsed: boolean;
  onOpen: () => void;
}

export function ProfileItem({ user, collapsed, onOpen }: ProfileItemProps) {
  return (
    <button
      type="button"
      onClick={onOpen}
      title={collapsed ? "Profile" : undefined}
      className={`flex w-full items-center gap-3 rounded-xl py-2 text-left transition duration-200 hover:bg-surface-2 ${
        collapsed ? "justify-center px-0" : "px-2"
      }`}
    >
      <UserAvatar letter={avatarLetter(user)} className="size-9 text-sm" />
      <span className={collapsed ? "sr-only" : "min-w-0 flex-1"}>
        <span className="block text-xs font-medium text-ink-muted">Profile</span>
        <span className="block truncate text-sm font-semibold text-ink">{user?.username}</span>
      </span>
    </button>
  );
}

interface SidebarProps extends NavListProps {
  user: StoredUser | null;
  onToggle: () => void;
  onProfile: () => void;
}

export function Sidebar({ activeItem, collapsed, onSelect, user, onToggle, onProfile }: SidebarProps) {
  return (
    <aside
      aria-label="Sidebar"
      className={`fixed top-[65px] bottom-0 left-0 z-30 hidden flex-col border-r border-line bg-surface/80 backdrop-blur-xl transition-[width] duration-200 ease-out md:flex ${
        collapsed ? "w-16" : "w-64"
      }`}
    >
      <nav aria-label="Main" className={`flex-1 overflow-y-auto py-4 ${collapsed ? "px-2" : "px-3"}`}>
        <NavList activeItem={activeItem} collapsed={collapsed} onSelect={onSelect} />
      </nav>
      <div className={`flex flex-col gap-2 border-t border-line py-3 ${collapsed ? "px-2" : "px-3"}`}>
        <ProfileItem user={user} collapsed={collapsed} onOpen={onProfile} />
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={!collapsed}
          className={`flex h-10 w-full items-center gap-3 rounded-xl text-sm font-medium text-ink-muted transition duration-200 hover:bg-surface-2 hover:text-ink ${
            collapsed ? "justify-center" : "px-3"
          }`}
        >
          {collapsed ? (
            <ChevronsRight aria-hidden="true" className="size-5" />
          ) : (
            <ChevronsLeft aria-hidden="true" className="size-5" />
          )}
          <span className={collapsed ? "sr-only" : ""}>
            {collapsed ? "Expand sidebar" : "Collapse sidebar"}
          </span>
        </button>
      </div>
    </aside>
  );
}
