// The current view, the highlighted sidebar item and how to move between views. The view is the source
// of truth (spec §2); the URL follows it with pushState so back, forward and bookmarks work, and both are
// remembered in local storage for the restore-on-reload rule. Signing in opens stories and signing out
// returns to the landing page (spec §4). A move to a view whose chunk is still loading is a transition:
// the current screen stays until the next is ready, and `isNavigating` says one is under way.
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
} from "react";
import { readStorage, writeStorage } from "../lib/storage";
import { useAuth } from "./auth-provider";
import {
  canonicalUrl,
  navItemForView,
  pathForView,
  resolvePopStateView,
  resolveStartupView,
} from "./navigation";
import { DEFAULT_SIGNED_IN_VIEW, isViewName, type NavItem, requiresAuth, VIEW_TITLES } from "./views";

interface ViewState {
  /** A view name; a name the app does not know renders the unknown-view screen. */
  view: string;
  activeNavItem: NavItem;
}

interface ViewContextValue extends ViewState {
  navigate: (view: string) => void;
  /** A navigation is under way (the next view's chunk is loading). */
  isNavigating: boolean;
}

const ViewContext = createContext<ViewContextValue | null>(null);

function currentLocation(): Pick<Location, "pathname" | "search" | "hash"> {
  return window.location;
}

export function ViewProvider({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();

  const [state, setState] = useState<ViewState>(() => {
    const view = resolveStartupView({
      pathname: currentLocation().pathname,
      isAuthenticated,
      storedView: readStorage("currentView"),
    });
    return { view, activeNavItem: navItemForView(view, readStorage("activeNavItem")) };
  });
  const [isNavigating, startTransition] = useTransition();

  // Signing in or out changes the screen at once, in the same render, so the signed-in views are never
  // drawn for a signed-out visitor (or the sign-in screen for a signed-in user).
  const [authSeen, setAuthSeen] = useState(isAuthenticated);
  if (authSeen !== isAuthenticated) {
    setAuthSeen(isAuthenticated);
    const view = isAuthenticated ? DEFAULT_SIGNED_IN_VIEW : "landing";
    setState({ view, activeNavItem: navItemForView(view, null) });
  }
  const viewRef = useRef(state.view);
  viewRef.current = state.view;

  // ...and the address bar follows that change with a history entry of its own.
  const authAtMount = useRef(isAuthenticated);
  useEffect(() => {
    if (authAtMount.current === isAuthenticated) return;
    authAtMount.current = isAuthenticated;
    const view = viewRef.current;
    if (isViewName(view) && currentLocation().pathname !== pathForView(view)) {
      window.history.pushState(null, "", pathForView(view));
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    }
  }, [isAuthenticated]);

  // Put the address bar in step with the view chosen at load (e.g. "/studio" for a signed-out visitor
  // becomes "/auth"), without adding a history entry.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, for the view chosen at load
  useEffect(() => {
    if (!isViewName(state.view)) return;
    const url = canonicalUrl(state.view, currentLocation());
    const { pathname, search, hash } = currentLocation();
    if (url !== `${pathname}${search}${hash}`) window.history.replaceState(window.history.state, "", url);
  }, []);

  useEffect(() => {
    writeStorage("currentView", state.view);
    // The nav item belongs to the signed-in app; logout forgets it and the public screens leave it be.
    if (isViewName(state.view) && requiresAuth(state.view))
      writeStorage("activeNavItem", state.activeNavItem);
    document.title = isViewName(state.view) ? VIEW_TITLES[state.view] : "Storyverse";
  }, [state.view, state.activeNavItem]);

  useEffect(() => {
    const onPopState = () => {
      const location = currentLocation();
      const view = resolvePopStateView({
        pathname: location.pathname,
        isAuthenticated,
        storedView: readStorage("currentView"),
      });
      // An in-page anchor also fires popstate: the path, and so the view, stay the same.
      setState((prev) =>
        prev.view === view ? prev : { view, activeNavItem: navItemForView(view, prev.activeNavItem) },
      );
      if (pathForView(view) !== location.pathname) {
        window.history.replaceState(window.history.state, "", canonicalUrl(view, location));
      }
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, [isAuthenticated]);

  const navigate = useCallback(
    (target: string) => {
      const view = isViewName(target) && requiresAuth(target) && !isAuthenticated ? "auth" : target;
      // Choosing the view already shown does nothing (spec: same item is ignored).
      if (view === viewRef.current) return;
      startTransition(() => {
        setState((prev) => ({
          view,
          activeNavItem: isViewName(view) ? navItemForView(view, prev.activeNavItem) : prev.activeNavItem,
        }));
      });
      if (isViewName(view)) {
        const path = pathForView(view);
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
