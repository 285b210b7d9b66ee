// The product's views, by their internal names (also the stored `currentView` values), which of them a
// visitor may see, and their document titles.
import { i18n } from "../i18n/i18n";

export const VIEW_NAMES = [
  "landing",
  "auth",
  "email-verification",
  "forgot-password",
  "stories",
  "story-interface",
  "studio",
  "chat",
  "library",
  "subscription",
  "news",
  // The admin console (decision 0140): reached from an administrator's account menu, never restored.
  "admin",
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** Views an anonymous visitor may see; every other view needs a signed-in user. */
export const PUBLIC_VIEWS = ["landing", "auth", "email-verification", "forgot-password"] as const;
export type PublicView = (typeof PUBLIC_VIEWS)[number];

/** The only views restored from storage on reload; anything else falls back to stories. */
export const RESTORABLE_VIEWS = ["stories", "studio", "chat", "library", "subscription", "news"] as const;
export type RestorableView = (typeof RESTORABLE_VIEWS)[number];

export const DEFAULT_SIGNED_IN_VIEW = "stories" satisfies RestorableView;

/**
 * Sidebar items, by their stored keys (Gallery is `library`, Credits `subscription`, Updates `news`, and
 * Free play the main chat, `chat`, which would otherwise be reachable from nowhere).
 */
export const NAV_ITEMS = ["stories", "chat", "studio", "library", "subscription", "news"] as const;
export type NavItem = (typeof NAV_ITEMS)[number];

export function isViewName(value: string): value is ViewName {
  return (VIEW_NAMES as readonly string[]).includes(value);
}

export function isPublicView(value: string): value is PublicView {
  return (PUBLIC_VIEWS as readonly string[]).includes(value);
}

export function isRestorableView(value: string): value is RestorableView {
  return (RESTORABLE_VIEWS as readonly string[]).includes(value);
}

export function isNavItem(value: string): value is NavItem {
  return (NAV_ITEMS as readonly string[]).includes(value);
}

export function requiresAuth(view: ViewName): boolean {
  return !isPublicView(view);
}

/** Each view's key under `common:viewTitles`. */
const VIEW_TITLE_KEYS = {
  landing: "landing",
  auth: "auth",
  "email-verification": "emailVerification",
  "forgot-password": "forgotPassword",
  stories: "stories",
  "story-interface": "storyInterface",
  studio: "studio",
  chat: "chat",
  library: "library",
  subscription: "subscription",
  news: "news",
  admin: "admin",
} as const satisfies Record<ViewName, string>;

/** A view's document title, from its screen's heading, in the interface's language at the time of the call. */
export function viewTitle(view: ViewName): string {
  return i18n.t(`common:viewTitles.${VIEW_TITLE_KEYS[view]}`);
}
