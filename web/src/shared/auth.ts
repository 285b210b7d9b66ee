// Who is signed in, as every screen reads it: the context and its hook. The provider that signs in and out
// lives in the app layer (app/auth-provider.tsx), because signing out also stops features' work (narration,
// the payment return); features read the session here and never import the app.
import { createContext, useContext } from "react";
import type { StoredUser } from "../lib/storage";

export interface AuthState {
  isAuthenticated: boolean;
  user: StoredUser | null;
}

export interface SignOutOptions {
  /** End the session on the server too (POST /api/logout). Off when the server already ended it. */
  revoke?: boolean;
}

export interface SignInOptions {
  /** The session began at the OIDC provider (logout then ends the provider's session too). */
  via?: "password" | "oidc";
}

export interface AuthContextValue extends AuthState {
  /** The app was opened by the return from the payment page (a `payment` query parameter). */
  returningFromPayment: boolean;
  signIn: (token: string, user: StoredUser, options?: SignInOptions) => void;
  signOut: (options?: SignOutOptions) => Promise<void>;
  /** Keeps the stored user in step with the server (e.g. the credit balance). */
  updateUser: (patch: Partial<Omit<StoredUser, "id">>) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}
