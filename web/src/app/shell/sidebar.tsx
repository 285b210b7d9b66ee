// The left sidebar: Stories, Free play (the main chat), Studio, Gallery, Credits, Updates, and the profile
// item, which opens credit management. Collapsed, each icon says its name in a tooltip on hover and focus. Beside the content from 768 px (64 px collapsed, 256 px expanded); on a phone
// the same list opens as a drawer over the content (see nav-drawer.tsx).
import { ChevronsLeft, ChevronsRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Tooltip } from "../../components/tooltip";
import type { StoredUser } from "../../lib/storage";
import type { NavItem } from "../../shared/views";
import { SIDEBAR_ITEMS } from "./nav-items";
import { avatarLetter, UserAvatar } from "./user-avatar";

interface NavListProps {
  activeItem: NavItem;
  collapsed: boolean;
  onSelect: (item: NavItem) => void;
}

export function NavList({ activeItem, collapsed, onSelect }: NavListProps) {
  const { t } = useTranslation("common");
  return (
    <ul className="flex flex-col gap-1">
      {SIDEBAR_ITEMS.map(({ key, icon: Icon }) => {
        const label = t(`nav.items.${key}`);
        const active = key === activeItem;
        const button = (
          <button
            type="button"
            onClick={() => onSelect(key)}
            aria-current={active ? "page" : undefined}
            className={`group flex h-11 w-full items-center gap-3 rounded-xl text-sm font-medium transition duration-200 ${
              collapsed ? "justify-center px-0" : "px-3"
            } ${
              active ? "bg-accent-soft text-accent-ink" : "text-ink-muted hover:bg-surface-2 hover:text-ink"
            }`}
          >
            <Icon aria-hidden="true" className="size-5 shrink-0" />
            <span className={collapsed ? "sr-only" : "truncate"}>{label}</span>
          </button>
        );
        return (
          <li key={key}>
            {collapsed ? (
              <Tooltip label={label} side="right" className="w-full">
                {button}
              </Tooltip>
            ) : (
              button
            )}
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
  const { t } = useTranslation("common");
  const button = (
    <button
      type="button"
      onClick={onOpen}
      className={`flex w-full items-center gap-3 rounded-xl py-2 text-start transition duration-200 hover:bg-surface-2 ${
        collapsed ? "justify-center px-0" : "px-2"
      }`}
    >
      <UserAvatar letter={avatarLetter(user)} className="size-9 text-sm" />
      <span className={collapsed ? "sr-only" : "min-w-0 flex-1"}>
        <span className="block text-xs font-medium text-ink-muted">{t("nav.profile")}</span>
        <span data-user-text className="block truncate text-sm font-semibold text-ink">
          {user?.username}
        </span>
      </span>
    </button>
  );
  return collapsed ? (
    <Tooltip label={t("nav.profile")} side="right" className="w-full">
      {button}
    </Tooltip>
  ) : (
    button
  );
}

interface SidebarProps extends NavListProps {
  user: StoredUser | null;
  onToggle: () => void;
  onProfile: () => void;
}

export function Sidebar({ activeItem, collapsed, onSelect, user, onToggle, onProfile }: SidebarProps) {
  const { t } = useTranslation("common");
  const toggleLabel = collapsed ? t("nav.expand") : t("nav.collapse");
  const toggle = (
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
      <span className={collapsed ? "sr-only" : ""}>{toggleLabel}</span>
    </button>
  );
  return (
    <aside
      aria-label={t("nav.sidebar")}
      className={`fixed top-[65px] bottom-0 inset-s-0 z-30 hidden flex-col border-e border-line bg-surface/80 backdrop-blur-xl transition-[width] duration-200 ease-out md:flex ${
        collapsed ? "w-16" : "w-64"
      }`}
    >
      <nav
        aria-label={t("nav.main")}
        // Collapsed, the tooltips reach out past the 64 px rail, so nothing may clip them.
        className={`flex-1 py-4 ${collapsed ? "overflow-visible px-2" : "overflow-y-auto px-3"}`}
      >
        <NavList activeItem={activeItem} collapsed={collapsed} onSelect={onSelect} />
      </nav>
      <div className={`flex flex-col gap-2 border-t border-line py-3 ${collapsed ? "px-2" : "px-3"}`}>
        <ProfileItem user={user} collapsed={collapsed} onOpen={onProfile} />
        {collapsed ? (
          <Tooltip label={toggleLabel} side="right" className="w-full">
            {toggle}
          </Tooltip>
        ) : (
          toggle
        )}
      </div>
    </aside>
  );
}
