// Pure rules that tie views to URLs and decide which view to show on load and on back/forward.
// The spec switches views by name; we also keep the URL in step so views can be bookmarked and the
// browser's history works, without weakening the spec's restore rule for signed-in views.
import {
  DEFAULT_SIGNED_IN_VIEW,
  isNavItem,
  isPublicView,
  isRestorableView,
  type NavItem,
  type RestorableView,
  type ViewName,
} from "./views";

const VIEW_PATHS: Record<ViewName, string> = {
  landing: "/",
  auth: "/auth",
  // The only path the spec itself reacts to: the link in the verification email.
  "email-verification": "/verify-email",
  "forgot-password": "/forgot-password",
  stories: "/stories",
  "story-interface": "/story",
  studio: "/studio",
  chat: "/chat",
  library: "/library",
  subscription: "/subscription",
  news: "/news",
};

const PATH_VIEWS = new Map<string, ViewName>(
  Object.entries(VIEW_PATHS).map(([view, path]) => [path, view as ViewName]),
);

export function pathForView(view: ViewName): string {
  return VIEW_PATHS[view];
}

/** The view a URL path names, or null for a path no view owns. Tolerates a trailing slash and case. */
export function viewFromPath(pathname: string): ViewName | null {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "").toLowerCase() : pathname;
  return PATH_VIEWS.get(normalized || "/") ?? null;
}

/** The spec's restore rule: the stored view if it is one of the restorable ones, otherwise stories. */
export function restoreView(storedView: string | null): RestorableView {
  return storedView !== null && isRestorableView(storedView) ? storedView : DEFAULT_SIGNED_IN_VIEW;
}

/**
 * The sidebar item to highlight for a view: the view itself when it is a sidebar item, else the stored
 * item (the main chat, for one, has no item of its own), else stories.
 */
export function navItemForView(view: ViewName, storedNav: string | null): NavItem {
  if (isNavItem(view)) return view;
  if (view === "story-interface") return "stories";
  return storedNav !== null && isNavItem(storedNav) ? storedNav : DEFAULT_SIGNED_IN_VIEW;
}

export interface ResolveInput {
  pathname: string;
  isAuthenticated: boolean;
  /** The `currentView` key from local storage. */
  storedView: string | null;
}

function resolve(input: ResolveInput, allowStoryInterface: boolean): ViewName {
  const fromPath = viewFromPath(input.pathname);
  // Links from emails must work whoever is signed in.
  if (fromPath === "email-verification" || fromPath === "forgot-password") return fromPath;

  if (!input.isAuthenticated) {
    if (fromPath === null) return "landing";
    // A bookmarked signed-in view asks the visitor to sign in first.
    return isPublicView(fromPath) ? fromPath : "auth";
  }

  if (fromPath !== null && isRestorableView(fromPath)) return fromPath;
  // An open story lives in memory: reachable by back/forward, but a reload starts from the list.
  if (fromPath === "story-interface") return allowStoryInterface ? fromPath : DEFAULT_SIGNED_IN_VIEW;
  // "/", the auth screens or an unknown path while signed in: the spec's restore rule.
  return restoreView(input.storedView);
}

/** The view to show when the app loads. */
export function resolveStartupView(input: ResolveInput): ViewName {
  return resolve(input, false);
}

/** The view to show after the browser's back or forward button. */
export function resolvePopStateView(input: ResolveInput): ViewName {
  return resolve(input, true);
}

/**
 * The URL to put in the address bar for a view shown at load. Query and hash survive only when the
 * address already named this view (a verification token, a bookmarked section), never onto another view.
 */
export function canonicalUrl(
  view: ViewName,
  location: Pick<Location, "pathname" | "search" | "hash">,
): string {
  const path = pathForView(view);
  if (viewFromPath(location.pathname) !== view) return path;
  return `${path}${location.search}${location.hash}`;
}
