// Helpers for the screens opened by links in account mails.
import { useCallback, useState } from "react";
import { useAuth } from "../auth-provider";
import { useView } from "../view-provider";
import { DEFAULT_SIGNED_IN_VIEW } from "../views";

/**
 * The `token` query parameter the screen was opened with, read once, and a way to take it out of the
 * address bar once it is spent, so a reload or a shared URL does not replay a single-use link.
 */
export function useUrlToken(): [string | null, () => void] {
  const [token] = useState(() => new URLSearchParams(window.location.search).get("token") || null);
  const clear = useCallback(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has("token")) return;
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);
  return [token, clear];
}

/** The app's root: the landing page for a visitor, the signed-in home for a user. */
export function useGoToRoot(): () => void {
  const { navigate } = useView();
  const { isAuthenticated } = useAuth();
  return useCallback(
    () => navigate(isAuthenticated ? DEFAULT_SIGNED_IN_VIEW : "landing"),
    [navigate, isAuthenticated],
  );
}
