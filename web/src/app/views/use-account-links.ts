// Helpers for the screens opened by links in account mails.
import { useCallback, useState } from "react";
import { writeSignInEmail } from "../../lib/storage";
import { useAuth } from "../../shared/auth";
import { useView } from "../../shared/view-provider";
import { DEFAULT_SIGNED_IN_VIEW } from "../../shared/views";

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

/**
 * Where a worked mail link leads: the sign-in, with the account's address filled in (a signed-in user goes
 * home instead). Landing on the marketing page signed out after verifying would be a dead end.
 */
export function useSignInAfterLink(): (email?: string) => void {
  const { navigate } = useView();
  const { isAuthenticated } = useAuth();
  return useCallback(
    (email?: string) => {
      if (isAuthenticated) {
        navigate(DEFAULT_SIGNED_IN_VIEW);
        return;
      }
      if (email) writeSignInEmail(email);
      navigate("auth");
    },
    [navigate, isAuthenticated],
  );
}
