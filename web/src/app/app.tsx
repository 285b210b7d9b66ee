// The app's composition root: providers (query client, connection, theme, banners, auth, view) around the
// current view, and the prompt that offers a new version of the app when one is ready.
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { UpdatePrompt } from "../features/pwa/update-prompt";
import { BannerProvider } from "../shared/banner-provider";
import { ConnectivityProvider } from "../shared/connectivity/connectivity-provider";
import { ThemeProvider } from "../shared/theme-provider";
import { ViewProvider } from "../shared/view-provider";
import { AuthProvider } from "./auth-provider";
import { createQueryClient } from "./query-client";
import { ViewOutlet } from "./view-outlet";

export function App() {
  const [queryClient] = useState(createQueryClient);
  // A new language draws every view again: strings formatted outside React (costs, dates) follow it too.
  const { i18n } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <ConnectivityProvider>
        <ThemeProvider>
          <BannerProvider>
            <AuthProvider>
              <ViewProvider>
                <ViewOutlet key={i18n.language} />
              </ViewProvider>
              <UpdatePrompt />
            </AuthProvider>
          </BannerProvider>
        </ThemeProvider>
      </ConnectivityProvider>
    </QueryClientProvider>
  );
}
