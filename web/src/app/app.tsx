// The app's composition root: providers (query client, connection, theme, banners, auth, view) around the
// current view.
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { AuthProvider } from "./auth-provider";
import { BannerProvider } from "./banner-provider";
import { ConnectivityProvider } from "./connectivity/connectivity-provider";
import { createQueryClient } from "./query-client";
import { ThemeProvider } from "./theme-provider";
import { ViewOutlet } from "./view-outlet";
import { ViewProvider } from "./view-provider";

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectivityProvider>
        <ThemeProvider>
          <BannerProvider>
            <AuthProvider>
              <ViewProvider>
                <ViewOutlet />
              </ViewProvider>
            </AuthProvider>
          </BannerProvider>
        </ThemeProvider>
      </ConnectivityProvider>
    </QueryClientProvider>
  );
}
