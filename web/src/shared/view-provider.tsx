// The current view, the highlighted sidebar item and how to move between views, over the app's router
// (navigation-routes.tsx, TanStack Router). The address is the source of truth: the view and the open story's id
// are read from the matched route, moves go through the router (so back, forward, bookmarks and links work), and
// the view and nav item are remembered in local storage for the restore-on-reload rule. Signing in opens stories
// and signing out returns to the landing page. A move to a view whose chunk is still loading keeps the current
// screen until the next is ready, and `isNavigating` says one is under way. A view name the app does not know
// has no address: it is shown (the unknown-view screen) until the next move.
import { RouterContextProvider, useRouter, useRouterState } from "@tanstack/react-router";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { readStorage, writeStorage } from "../lib/storage";
import { useAuth } from "./auth";
import { navItemForView, pathForView, resolveRoute } from "./navigation";
import { createAppRouter } from "./navigation-routes";
import {
  DEFAULT_SIGNED_IN_VIEW,
  isViewName,
  type NavItem,
  requiresAuth,
  type ViewName,
  viewTitle,
} from "./views";

interface ViewState {
  /** A view name; a name the app does not know renders the unknown-view screen. */
  view: string;
  activeNavItem: NavItem;
  /** The story the story interface shows; null on every other view. */
  storyId: string | null;
}

export interface NavigateOptions {
  /** For the story interface: which story to show. */
  storyId?: string;
}

interface ViewContextValue extends ViewState {
  navigate: (view: string, options?: NavigateOptions) => void;
  /** A navigation is under way (the next view's chunk is loading). */
  isNavigating: boolean;
}

const ViewContext = createContext<ViewContextValue | null>(null);

function scrollToTop() {
  window.scrollTo({ top: 0, left: 0, behavior: "instant" });
}

/** The view state, read from the router, around the provider's children. */
function ViewStateProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const { isAuthenticated } = useAuth();
  // Re-rendered when the interface's language changes, so the document title follows it.
  useTranslation("common");
  // Before the router's first load has matched the address, the rules it applies say what it will show.
  const [initial] = useState(() =>
    resolveRoute({
      pathname: window.location.pathname,
      isAuthenticated,
      storedView: readStorage("currentView"),
    }),
  );
  const routedView = useRouterState({ select: (s) => s.matches.at(-1)?.staticData.view ?? null });
  const routedStoryId = useRouterState({
    select: (s) => (s.matches.at(-1)?.params as { storyId?: string } | undefined)?.storyId ?? null,
  });
  const href = useRouterState({ select: (s) => s.location.href });
  // Moves asked for here (not the first load, nor back and forward) that are still loading their view.
  const [moves, setMoves] = useState(0);
  const isNavigating = moves > 0;
  // A view name with no route: shown where it was asked for, forgotten at the next move.
  const [unknown, setUnknown] = useState<{ view: string; at: string } | null>(null);
  const unknownView = unknown && unknown.at === href ? unknown.view : null;

  const view: string = unknownView ?? routedView ?? initial.view;
  const storyId =
    unknownView !== null || view !== "story-interface" ? null : routedView ? routedStoryId : initial.storyId;
  const activeNavItem = navItemForView(
    isViewName(view) ? view : DEFAULT_SIGNED_IN_VIEW,
    readStorage("activeNavItem"),
  );
  const shown = useRef({ view, storyId, href, isAuthenticated });
  shown.current = { view, storyId, href, isAuthenticated };

  // The router follows the address bar: at start, and after every push, replace, back or forward.
  useLayoutEffect(() => {
    const unsubscribe = router.history.subscribe(() => void router.load());
    void router.load();
    return unsubscribe;
  }, [router]);

  // Signing in or out opens stories or the landing page, with a history entry of its own.
  const authSeen = useRef(isAuthenticated);
  useLayoutEffect(() => {
    if (authSeen.current === isAuthenticated) return;
    authSeen.current = isAuthenticated;
    setUnknown(null);
    void router.navigate({ to: pathForView(isAuthenticated ? DEFAULT_SIGNED_IN_VIEW : "landing") });
    scrollToTop();
  }, [isAuthenticated, router]);

  // A layout effect, so the remembered view is written in the same commit that draws it: a reload (or a
  // reader) the moment the new screen appears never finds the previous view stored.
  useLayoutEffect(() => {
    writeStorage("currentView", view);
    // The nav item belongs to the signed-in app; logout forgets it and the public screens leave it be.
    if (isViewName(view) && requiresAuth(view)) writeStorage("activeNavItem", activeNavItem);
  }, [view, activeNavItem]);

  // The tab's title, in the interface's language (a new language titles the tab again).
  const title = isViewName(view) ? viewTitle(view) : "Storyverse";
  useLayoutEffect(() => {
    document.title = title;
  }, [title]);

  const navigate = useCallback(
    (target: string, options: NavigateOptions = {}) => {
      const now = shown.current;
      if (!isViewName(target)) {
        setUnknown({ view: target, at: now.href });
        scrollToTop();
        return;
      }
      const to: ViewName = requiresAuth(target) && !now.isAuthenticated ? "auth" : target;
      const nextStoryId = to === "story-interface" ? (options.storyId ?? null) : null;
      // Choosing what is already shown does nothing (the same nav item is ignored).
      if (to === now.view && nextStoryId === now.storyId) return;
      setUnknown(null);
      setMoves((n) => n + 1);
      const moved =
        nextStoryId !== null
          ? router.navigate({ to: "/stories/$storyId", params: { storyId: nextStoryId } })
          : router.navigate({ to: pathForView(to) });
      void moved.finally(() => setMoves((n) => n - 1));
      scrollToTop();
    },
    [router],
  );

  const value = useMemo<ViewContextValue>(
    () => ({ view, storyId, activeNavItem, navigate, isNavigating }),
    [view, storyId, activeNavItem, navigate, isNavigating],
  );
  return <ViewContext value={value}>{children}</ViewContext>;
}

export function ViewProvider({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const auth = useRef(isAuthenticated);
  auth.current = isAuthenticated;
  const [router] = useState(() => createAppRouter({ isAuthenticated: () => auth.current }));
  return (
    <RouterContextProvider router={router}>
      <ViewStateProvider>{children}</ViewStateProvider>
    </RouterContextProvider>
  );
}

export function useView(): ViewContextValue {
  const value = useContext(ViewContext);
  if (!value) throw new Error("useView must be used inside <ViewProvider>");
  return value;
}
