// Renders the app's providers and view outlet at a given URL, signed in or not, for view tests.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { AuthProvider, type AuthState } from "../app/auth-provider";
import { ThemeProvider } from "../app/theme-provider";
import { ViewOutlet } from "../app/view-outlet";
import { ViewProvider } from "../app/view-provider";

export const SIGNED_IN: AuthState = {
  isAuthenticated: true,
  user: { id: "u1", email: "ada@example.com", username: "ada", credits_remaining: 15 },
};

export function Providers({ children, auth }: { children: ReactNode; auth?: AuthState }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider value={auth}>
          <ViewProvider>{children}</ViewProvider>
        </AuthProvider>
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
