// Pure rules that tie views to URLs and decide which view an address shows: at load, and after back or forward.
// Views switch by name; the address follows them so views can be bookmarked and the browser's history works,
// without weakening the restore rule for signed-in views (docs/decisions/0001-view-urls.md, 0020-story-address.md).
// The router (navigation-routes.tsx, decision 0118) applies them to every address it is given.
import {
  DEFAULT_SIGNED_IN_VIEW,
  isNavItem,
  isPublicView,
  isRestorableView,
  type NavItem,
  type RestorableView,
  type ViewName,
} from "./views";

/** A place in the app: a view, and for the story interface the story it shows. */
export interface Route {
  view: ViewName;
  /** The open story's id; only the story interface has one. */
  storyId: string | null;
}

const VIEW_PATHS = {
  landing: "/",
  auth: "/auth",
  // The one path the product has always reacted to: the link in the verification email.
  "email-verification": "/verify-email",
  "forgot-password": "/forgot-password",
  stories: "/stories",
  // The story interface lives under the story's own address, /stories/{id} (see storyPath).
  "story-interface": "/stories",
  studio: "/studio",
  chat: "/chat",
  library: "/library",
  subscription: "/subscription",
  news: "/news",
  admin: "/admin",
} as const satisfies Record<ViewName, string>;

/** A view's own path (the router's typed `to`). */
export type ViewPath = (typeof VIEW_PATHS)[ViewName];

const PATH_VIEWS = new Map<string, ViewName>(
  Object.entries(VIEW_PATHS)
    .filter(([view]) => view !== "story-interface")
    .map(([view, path]) => [path, view as ViewName]),
);

const STORY_PATH = /^\/stories\/([^/]+)\/?$/i;

/** The address of one story: bookmarkable, reloadable and linkable. */
export function storyPath(storyId: string): string {
  return `/stories/${encodeURIComponent(storyId)}`;
}

/** The path of a route. The story interface without a story has no address of its own: the list's. */
export function pathForRoute(route: Route): string {
  if (route.view === "story-interface" && route.storyId) return storyPath(route.storyId);
  return VIEW_PATHS[route.view];
}

export function pathForView(view: ViewName): ViewPath {
  return VIEW_PATHS[view];
}

/** The route a URL path names, or null for a path no view owns. Tolerates a trailing slash and case. */
export function routeFromPath(pathname: string): Route | null {
  const story = STORY_PATH.exec(pathname);
  if (story?.[1]) {
    let storyId: string;
    try {
      storyId = decodeURIComponent(story[1]);
    } catch {
      return null;
    }
    return { view: "story-interface", storyId };
  }
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "").toLowerCase() : pathname;
  const view = PATH_VIEWS.get(normalized || "/");
  return view ? { view, storyId: null } : null;
}

/** The view a URL path names, or null for a path no view owns. */
export function viewFromPath(pathname: string): ViewName | null {
  return routeFromPath(pathname)?.view ?? null;
}

export function sameRoute(a: Route, b: Route): boolean {
  return a.view === b.view && a.storyId === b.storyId;
}

/** The restore rule: the stored view if it is one of the restorable ones, otherwise stories. */
export function restoreView(storedView: string | null): RestorableView {
  return storedView !== null && isRestorableView(storedView) ? storedView : DEFAULT_SIGNED_IN_VIEW;
}

/**
 * The sidebar item to highlight for a view: the view itself when it is a sidebar item, else the stored
 * item, else stories.
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

/**
 * The route to show for an address: at load, and after the browser's back or forward button. A URL that
 * names a signed-in view (a story included) opens it; the stored view is restored only where the URL names
 * none, and only if it is restorable.
 */
export function resolveRoute(input: ResolveInput): Route {
  const fromPath = routeFromPath(input.pathname);
  const view = fromPath?.view ?? null;
  // Links from emails must work whoever is signed in.
  if (view === "email-verification" || view === "forgot-password") return { view, storyId: null };

  if (!input.isAuthenticated) {
    if (view === null) return { view: "landing", storyId: null };
    // A bookmarked signed-in view asks the visitor to sign in first.
    return { view: isPublicView(view) ? view : "auth", storyId: null };
  }

  // The admin console opens by its address too (the view itself shows only to administrators).
  const addressable = (name: ViewName) =>
    isRestorableView(name) || name === "story-interface" || name === "admin";
  if (fromPath !== null && addressable(fromPath.view)) {
    return fromPath;
  }
  // "/", the auth screens or an unknown path while signed in: the restore rule.
  return { view: restoreView(input.storedView), storyId: null };
}

/**
 * The URL to put in the address bar for a route shown at load. Query and hash survive only when the
 * address already named this route (a verification token, a bookmarked section), never onto another.
 */
export function canonicalUrl(route: Route, location: Pick<Location, "pathname" | "search" | "hash">): string {
  const path = pathForRoute(route);
  const current = routeFromPath(location.pathname);
  if (current === null || !sameRoute(current, route)) return path;
  return `${path}${location.search}${location.hash}`;
}
