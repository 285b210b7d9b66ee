// First: zod must be jitless before any module builds a schema (zod-config.ts).
import "./zod-config";
import "./index.css";
import { setNonce } from "get-nonce";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { registerServiceWorker } from "./features/pwa/service-worker";
import { prepareLanguage } from "./i18n/i18n";
import { applyTheme, getInitialTheme } from "./lib/theme";

// The CSP forbids inline scripts, so the theme goes on <html> here, before React renders anything:
// this module runs before the first paint of the app, so no wrong-theme flash.
applyTheme(getInitialTheme());

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

// Radix dialogs inject a <style> element; the strict CSP admits it only with this response's nonce.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce && nonce !== "__CSP_NONCE__") setNonce(nonce);

// A shared story (/s/{token}) is a page of its own for signed-out readers: none of the app around it.
const SharedStoryPage = lazy(() =>
  import("./features/sharing/components/shared-story-page").then((m) => ({ default: m.SharedStoryPage })),
);
const isSharedStory = window.location.pathname.startsWith("/s/");

// The interface's language is loaded before the first render (decision 0155): nothing flashes in English first.
void prepareLanguage().then(() =>
  createRoot(root).render(
    <StrictMode>
      {isSharedStory ? (
        <Suspense fallback={null}>
          <SharedStoryPage />
        </Suspense>
      ) : (
        <App />
      )}
    </StrictMode>,
  ),
);

// The service worker exists only in a build (vite build writes /sw.js); the dev server has none. A shared
// story is read by people who do not use the app: no worker is installed for them.
if (import.meta.env.PROD && !isSharedStory) void registerServiceWorker();
