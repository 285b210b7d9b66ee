import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { serviceWorker } from "./scripts/service-worker-plugin.ts";

// The built app is served by the API server from web/dist under a strict Content-Security-Policy
// (script-src 'self', style-src 'self'), so the build must never emit inline scripts or styles.
export default defineConfig({
  plugins: [react(), tailwindcss(), serviceWorker()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Keep images as files: data: URIs are allowed, but files cache better and keep the CSS small.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        // zod and src/zod-config.ts in one chunk, the config right after zod: every chunk that builds a
        // schema imports this one, so zod is jitless before the first schema exists (zod-config.ts).
        codeSplitting: {
          groups: [{ name: "zod", test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]zod-config\.ts$/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: true },
    },
  },
});
