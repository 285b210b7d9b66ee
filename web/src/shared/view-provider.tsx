// The current view, the highlighted sidebar item and how to move between views. The view (with the open
// story's id in the story interface) is the source of truth; the URL follows it with pushState so back,
// forward, bookmarks and links work, and the view and nav item are remembered in local storage for the
// restore-on-reload rule. Signing in opens stories and signing out returns to the landing page. A move to a view whose chunk is still loading is a transition:
// the current screen stays until the next is ready, and `isNavigating` says one is under way.
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
} from "react";
import { readStorage, writeStorage } from "../lib/storage";
import { useAuth } from "./auth";
import {
  canonicalUrl,
  navItemForView,
  pathForRoute,
  type Route,
  resolveRoute,
  routeFromPath,
  sameRoute,
} from "./navigation";
import { DEFAULT_SIGNED_IN_VIEW, isViewName, type NavItem, requiresAuth, VIEW_TITLES } from "./views";

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

function currentLocation(): Pick<Location, "pathname" | "search" | "hash"> {
  return window.location;
}

/** The route a state stands for, or null for a view name the app does not know (it has no address). */
function routeOf(state: Pick<ViewState, "view" | "storyId">): Route | null {
  return isViewName(state.view) ? { view: state.view, storyId: state.storyId } : null;
}

function stateFor(route: Route, storedNav: string | null): ViewState {
  return { view: route.view, storyId: route.storyId, activeNavItem: navItemForView(route.view, storedNav) };
}

export function ViewProvider({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();

  const [state, setState] = useState<ViewState>(() => {
    const route = resolveRoute({
      pathname: currentLocation().pathname,
      isAuthenticated,
      storedView: readStorage("currentView"),
    });
    return stateFor(route, readStorage("activeNavItem"));
  });
  const [isNavigating, startTransition] = useTransition();

  // Signing in or out changes the screen at once, in the same render, so the signed-in views are never
  // drawn for a signed-out visitor (or the sign-in screen for a signed-in user).
  const [authSeen, setAuthSeen] = useState(isAuthenticated);
  if (authSeen !== isAuthenticated) {
    setAuthSeen(isAuthenticated);
    const view = isAuthenticated ? DEFAULT_SIGNED_IN_VIEW : "landing";
    setState(stateFor({ view, storyId: null }, null));
  }
  const stateRef = useRef(state);
  stateRef.current = state;

  // ...and the address bar follows that change with a history entry of its own, in the same commit (a layout
  // effect), so nothing that reads the address the moment the new screen appears finds the old one.
  const authAtMount = useRef(isAuthenticated);
  useLayoutEffect(() => {
    if (authAtMount.current === isAuthenticated) return;
    authAtMount.current = isAuthenticated;
    const route = routeOf(stateRef.current);
    if (route && currentLocation().pathname !== pathForRoute(route)) {
      window.history.pushState(null, "", pathForRoute(route));
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    }
  }, [isAuthenticated]);

  // Put the address bar in step with the view chosen at load (e.g. "/studio" for a signed-out visitor
  // becomes "/auth"), without adding a history entry.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, for the view chosen at load
  useEffect(() => {
    const route = routeOf(state);
    if (!route) return;
    const url = canonicalUrl(route, currentLocation());
    const { pathname, search, hash } = currentLocation();
    if (url !== `${pathname}${search}${hash}`) window.history.replaceState(window.history.state, "", url);
  }, []);

  // A layout effect, so the remembered view is written in the same commit that draws it: a reload (or a
  // reader) the moment the new screen appears never finds the previous view stored.
  useLayoutEffect(() => {
    writeStorage("currentView", state.view);
    // The nav item belongs to the signed-in app; logout forgets it and the public screens leave it be.
    if (isViewName(state.view) && requiresAuth(state.view))
      writeStorage("activeNavItem", state.activeNavItem);
    document.title = isViewName(state.view) ? VIEW_TITLES[state.view] : "Storyverse";
  }, [state.view, state.activeNavItem]);

  useEffect(() => {
    const onPopState = () => {
      const location = currentLocation();
      const route = resolveRoute({
        pathname: location.pathname,
        isAuthenticated,
        storedView: readStorage("currentView"),
      });
      // An in-page anchor also fires popstate: the path, and so the view, stay the same.
      setState((prev) => {
        const shown = routeOf(prev);
        return shown && sameRoute(shown, route) ? prev : stateFor(route, prev.activeNavItem);
      });
      const named = routeFromPath(location.pathname);
      if (!named || !sameRoute(named, route)) {
        window.history.replaceState(window.history.state, "", canonicalUrl(route, location));
      }
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, [isAuthenticated]);

  const navigate = useCallback(
    (target: string, options: NavigateOptions = {}) => {
      const view = isViewName(target) && requiresAuth(target) && !isAuthenticated ? "auth" : target;
      const storyId = view === "story-interface" ? (options.storyId ?? null) : null;
      // Choosing what is already shown does nothing (the same nav item is ignored).
      if (view === stateRef.current.view && storyId === stateRef.current.storyId) return;
      startTransition(() => {
        setState((prev) => ({
          view,
          storyId,
          activeNavItem: isViewName(view) ? navItemForView(view, prev.activeNavItem) : prev.activeNavItem,
        }));
      });
      const route = routeOf({ view, storyId });
      if (route) {
        const path = pathForRoute(route);
        const { pathname, search, hash } = currentLocation();
        if (`${pathname}${search}${hash}` !== path) window.history.pushState(null, "", path);
      }
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    },
    [isAuthenticated],
  );

  const value = useMemo<ViewContextValue>(
    () => ({ ...state, navigate, isNavigating }),
    [state, navigate, isNavigating],
  );
  return <ViewContext value={value}>{children}</ViewContext>;
}

export function useView(): ViewContextValue {
  const value = useContext(ViewContext);
  if (!value) throw new Error("useView must be used inside <ViewProvider>");
  return value;
}
