// Who is signed in. A stored token and user restore the session
// at load; signing in stores both; signing out ends the session on the server, then forgets everything
// the browser keeps for it (token, user, view, nav item, Studio messages) whether or not the server answered.
// Features read the session through shared/auth.ts (the context and useAuth); this provider is the app's.
// The server is asked whether a restored session is still live by the signed-in shell (app/shell), so
// the landing page's first chunk carries no API code.
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { captureOidcReturn } from "../features/accounts/oidc-return";
import { captureStartupPaymentReturn } from "../features/credits/payment-return";
import {
  clearPendingUser,
  readStorage,
  removeStorage,
  type StorageKey,
  type StoredUser,
  writeStorage,
} from "../lib/storage";
import {
  AuthContext,
  type AuthContextValue,
  type AuthState,
  type SignInOptions,
  type SignOutOptions,
} from "../shared/auth";
import { stopAllNarration } from "../shared/voice/narration-player";

/** What logout forgets. */
export const SESSION_STORAGE_KEYS: readonly StorageKey[] = [
  "token",
  "user",
  "signedInWith",
  "currentView",
  "activeNavItem",
  "studio_messages",
];

const SIGNED_OUT: AuthState = { isAuthenticated: false, user: null };

/** The session the browser remembers: both a token and a user, or none. */
export function readStoredSession(): AuthState {
  const token = readStorage("token");
  const user = readStorage("user");
  return token && user ? { isAuthenticated: true, user } : SIGNED_OUT;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(() => {
    // Back from the OIDC provider with a sign-in (decision 0147): the session it brings replaces any this
    // browser kept, and the auth view finishes it. The address is tidied here, before the router reads it.
    // Back from a deletion confirmed there (decision 0158): the account is gone, and so is what this browser kept.
    const oidc = captureOidcReturn();
    if (oidc && (oidc.kind === "session" || oidc.kind === "link" || oidc.kind === "deleted")) {
      for (const key of SESSION_STORAGE_KEYS) removeStorage(key);
    }
    return readStoredSession();
  });
  // Read before anything rewrites the address bar (the view provider tidies it right after the first render):
  // the payment return's query string is taken here, once, and the address becomes the Credits page's.
  const [returningFromPayment] = useState(() => captureStartupPaymentReturn());
  const signingOut = useRef<Promise<void> | null>(null);

  const signIn = useCallback((token: string, user: StoredUser, { via }: SignInOptions = {}) => {
    writeStorage("token", token);
    writeStorage("user", user);
    if (via === "oidc") writeStorage("signedInWith", "oidc");
    else removeStorage("signedInWith");
    clearPendingUser();
    setState({ isAuthenticated: true, user });
  }, []);

  const signOut = useCallback(({ revoke = true }: SignOutOptions = {}) => {
    // A logout already under way (e.g. its own request answered 401) is the one that counts.
    if (signingOut.current) return signingOut.current;
    const run = async () => {
      // A session begun at the OIDC provider ends there too: its end-session page, visited once the local
      // session is forgotten, returns the browser to the app.
      let providerLogout: (() => void) | null = null;
      if (revoke && readStorage("token")) {
        try {
          if (readStorage("signedInWith") === "oidc") {
            const oidc = await import("../features/accounts/api/oidc");
            const endSession = await oidc.oidcLogout();
            if (endSession) providerLogout = () => oidc.visitProvider(endSession);
          } else {
            const { logout } = await import("../features/accounts/api/logout");
            await logout();
          }
        } catch {
          // Offline or already ended: the local session is forgotten all the same.
        }
      }
      for (const key of SESSION_STORAGE_KEYS) removeStorage(key);
      setState(SIGNED_OUT);
      providerLogout?.();
    };
    signingOut.current = run().finally(() => {
      signingOut.current = null;
    });
    return signingOut.current;
  }, []);

  const updateUser = useCallback((patch: Partial<Omit<StoredUser, "id">>) => {
    setState((prev) => {
      if (!prev.user) return prev;
      const user = { ...prev.user, ...patch };
      writeStorage("user", user);
      return { ...prev, user };
    });
  }, []);

  // Once signed out (and the signed-in screens are gone), nothing cached for that user may linger, nor go on
  // reading their story aloud.
  const wasAuthenticated = useRef(state.isAuthenticated);
  useEffect(() => {
    if (wasAuthenticated.current && !state.isAuthenticated) {
      queryClient.clear();
      stopAllNarration();
    }
    wasAuthenticated.current = state.isAuthenticated;
  }, [state.isAuthenticated, queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, returningFromPayment, signIn, signOut, updateUser }),
    [state, returningFromPayment, signIn, signOut, updateUser],
  );
  return <AuthContext value={value}>{children}</AuthContext>;
}
