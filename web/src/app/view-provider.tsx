// The current view, the highlighted sidebar item and how to move between views. The view is the source
// of truth (spec §2); the URL follows it with pushState so back, forward and bookmarks work, and both are
// remembered in local storage for the restore-on-reload rule.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { readStorage, writeStorage } from "../lib/storage";
import { useAuth } from "./auth-provider";
import {
  canonicalUrl,
  navItemForView,
  pathForView,
  resolvePopStateView,
  resolveStartupView,
} from "./navigation";
import { isViewName, type NavItem, requiresAuth, VIEW_TITLES } from "./views";

interface ViewState {
  /** A view name; a name the app does not know renders the unknown-view screen. */
  view: string;
  activeNavItem: NavItem;
}

interface ViewContextValue extends ViewState {
  navigate: (view: string) => void;
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
      if (view === state.view) return;
      setState((prev) => ({
        view,
        activeNavItem: isViewName(view) ? navItemForView(view, prev.activeNavItem) : prev.activeNavItem,
      }));
      if (isViewName(view)) {
        const path = pathForView(view);
        const { pathname, search, hash } = currentLocation();
        if (`${pathname}${search}${hash}` !== path) window.history.pushState(null, "", path);
      }
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    },
    [isAuthenticated, state.view],
  );

  const value = useMemo<ViewContextValue>(() => ({ ...state, navigate }), [state, navigate]);
  return <ViewContext value={value}>{children}</ViewContext>;
}

export function useView(): ViewContextValue {
  const value = useContext(ViewContext);
  if (!value) throw new Error("useView must be used inside <ViewProvider>");
  return value;
}
