// Renders the app's providers and view outlet at a given URL, signed in or not, for view tests.
// A signed-in render stores a session first, exactly as a returning user's browser would hold it.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { type ReactNode, useState } from "react";
import { AuthProvider } from "../app/auth-provider";
import { ViewOutlet } from "../app/view-outlet";
import { writeStorage } from "../lib/storage";
import type { AuthState } from "../shared/auth";
import { BannerProvider } from "../shared/banner-provider";
import { ThemeProvider } from "../shared/theme-provider";
import { ViewProvider } from "../shared/view-provider";

export const SIGNED_IN: AuthState = {
  isAuthenticated: true,
  user: { id: "u1", email: "ada@example.com", username: "ada", credits_remaining: 15 },
};

export const TEST_TOKEN = "test-token";

export function storeSession(auth: AuthState | undefined): void {
  if (!auth?.isAuthenticated || !auth.user) return;
  writeStorage("token", TEST_TOKEN);
  writeStorage("user", auth.user);
}

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function Providers({
  children,
  auth,
  client = createTestQueryClient(),
}: {
  children: ReactNode;
  auth?: AuthState;
  client?: QueryClient;
}) {
  // Once, before the auth provider reads storage; a later logout must not be undone by a re-render.
  useState(() => storeSession(auth));
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <BannerProvider>
          <AuthProvider>
            <ViewProvider>{children}</ViewProvider>
          </AuthProvider>
        </BannerProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}

export function renderApp(url: string, auth?: AuthState) {
  window.history.replaceState(null, "", url);
  return render(
    <Providers auth={auth}>
      <ViewOutlet />
    </Providers>,
  );
}
