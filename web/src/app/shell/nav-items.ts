// The sidebar's items, keyed by the view each opens; each one's name is `common:nav.items.<key>`.
import {
  BookOpenText,
  Coins,
  Images,
  type LucideIcon,
  Newspaper,
  Sparkles,
  WandSparkles,
} from "lucide-react";
import type { NavItem } from "../../shared/views";

export interface SidebarItem {
  key: NavItem;
  icon: LucideIcon;
}

export const SIDEBAR_ITEMS: readonly SidebarItem[] = [
  { key: "stories", icon: BookOpenText },
  // The main chat: one never-ending story with no setup, for trying the narrator out.
  { key: "chat", icon: Sparkles },
  { key: "studio", icon: WandSparkles },
  { key: "library", icon: Images },
  { key: "subscription", icon: Coins },
  { key: "news", icon: Newspaper },
];

/** The view the profile item and the credit balance open: credit management. */
export const PROFILE_VIEW = "subscription" satisfies NavItem;
