// The signed-in app's side of startup: ask the server whether the stored session is live,
// keep the stored user (and so the credit balance) in step with its answer, and log out with
// 'Session expired. Please log in again.' when it is not, except on the return from the payment page.
// Any other request answered 401 ends the session the same way (the API client only reports it).
import { useEffect } from "react";
import { MESSAGES } from "../../features/accounts/auth-rules";
import { currentLanguage, setLanguage } from "../../i18n/i18n";
import { isPseudoLanguage } from "../../i18n/languages";
import { setUnauthorizedHandler } from "../../lib/api-client";
import { ApiError } from "../../lib/api-errors";
import { readStorage } from "../../lib/storage";
import { useAuth } from "../../shared/auth";
import { useBanner } from "../../shared/banner-provider";
import { SESSION_PATH, useSession } from "../../shared/verify-session";

const isAuthFailure = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

export function useSessionCheck(): void {
  const { updateUser, signOut, returningFromPayment } = useAuth();
  const { showError } = useBanner();
  const session = useSession();

  useEffect(() => {
    if (!session.data) return;
    const { email, username, credits_remaining, locale } = session.data;
    updateUser({ email, username, credits_remaining });
    // The language kept on the account follows the player to this device (a test pseudo-language stays).
    const language = currentLanguage();
    if (locale && locale !== language && !isPseudoLanguage(language)) void setLanguage(locale);
  }, [session.data, updateUser]);

  useEffect(() => {
    // A network failure or a server error says nothing about the session: keep it.
    if (!isAuthFailure(session.error) || returningFromPayment) return;
    showError(MESSAGES.sessionExpired);
    void signOut({ revoke: false });
  }, [session.error, returningFromPayment, showError, signOut]);

  useEffect(() => {
    setUnauthorizedHandler((path) => {
      // The session check above decides for its own request (it knows the payment exception), and a
      // logout that is refused is already on its way out.
      if (
        path === SESSION_PATH ||
        path === "/api/logout" ||
        path === "/api/auth/oidc/logout" ||
        !readStorage("token")
      )
        return;
      showError(MESSAGES.sessionExpired);
      void signOut({ revoke: false });
    });
    return () => setUnauthorizedHandler(null);
  }, [showError, signOut]);
}
