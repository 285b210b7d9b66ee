// The sidebar's items, keyed by the view each opens.
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
  label: string;
  icon: LucideIcon;
}

export const SIDEBAR_ITEMS: readonly SidebarItem[] = [
  { key: "stories", label: "Stories", icon: BookOpenText },
  // The main chat: one never-ending story with no setup, for trying the narrator out.
  { key: "chat", label: "Free play", icon: Sparkles },
  { key: "studio", label: "Studio", icon: WandSparkles },
  { key: "library", label: "Gallery", icon: Images },
  { key: "subscription", label: "Credits", icon: Coins },
  { key: "news", label: "Updates", icon: Newspaper },
];

/** The view the profile item and the credit balance open: credit management. */
export const PROFILE_VIEW = "subscription" satisfies NavItem;
