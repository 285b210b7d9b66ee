// Who is signed in. Accounts arrive in a later issue: until then nobody is, so only the public views
// (landing, auth, email verification, password reset) can be reached. The views already ask this
// context, so the account work only has to fill it in.
import { createContext, type ReactNode, useContext } from "react";
import type { StoredUser } from "../lib/storage";

export interface AuthState {
  isAuthenticated: boolean;
  user: StoredUser | null;
}

const SIGNED_OUT: AuthState = { isAuthenticated: false, user: null };

const AuthContext = createContext<AuthState>(SIGNED_OUT);

export function AuthProvider({ children, value = SIGNED_OUT }: { children: ReactNode; value?: AuthState }) {
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthState {
  return useContext(AuthContext);
}
