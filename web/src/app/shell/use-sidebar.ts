// The sidebar's collapsed/expanded state: collapsed by default, remembered under
// `sidebarState`, and broadcast as a window event carrying the margin the main content should keep, so
// views that position things themselves (canvases, fixed inputs) can follow it.
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { readStorage, writeStorage } from "../../lib/storage";

export const SIDEBAR_COLLAPSED_PX = 64;
export const SIDEBAR_EXPANDED_PX = 256;
export const SIDEBAR_EVENT = "sidebarStateChange";
/** From this width the sidebar sits beside the content; below it, it opens as a drawer over it. */
export const DESKTOP_QUERY = "(min-width: 768px)";

export interface SidebarStateDetail {
  collapsed: boolean;
  /** The left margin of the main content, in px (0 on a phone, where the sidebar is a drawer). */
  margin: number;
}

declare global {
  interface WindowEventMap {
    [SIDEBAR_EVENT]: CustomEvent<SidebarStateDetail>;
  }
}

function subscribeDesktop(onChange: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(DESKTOP_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Without matchMedia (tests, very old browsers) the layout is the desktop one. */
const isDesktopNow = () =>
  typeof window.matchMedia !== "function" || window.matchMedia(DESKTOP_QUERY).matches;

export function useIsDesktop(): boolean {
  return useSyncExternalStore(subscribeDesktop, isDesktopNow, () => true);
}

export function sidebarMargin(collapsed: boolean, isDesktop: boolean): number {
  if (!isDesktop) return 0;
  return collapsed ? SIDEBAR_COLLAPSED_PX : SIDEBAR_EXPANDED_PX;
}

export function useSidebar() {
  const [collapsed, setCollapsed] = useState(() => readStorage("sidebarState") !== "expanded");
  const isDesktop = useIsDesktop();
  const margin = sidebarMargin(collapsed, isDesktop);

  useEffect(() => {
    writeStorage("sidebarState", collapsed ? "collapsed" : "expanded");
  }, [collapsed]);

  useEffect(() => {
    window.dispatchEvent(
      new CustomEvent<SidebarStateDetail>(SIDEBAR_EVENT, { detail: { collapsed, margin } }),
    );
  }, [collapsed, margin]);

  const toggle = useCallback(() => setCollapsed((value) => !value), []);
  return { collapsed, toggle, margin, isDesktop };
}
