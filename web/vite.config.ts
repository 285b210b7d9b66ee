import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The built app is served by the API server from web/dist under a strict Content-Security-Policy
// (script-src 'self', style-src 'self'), so the build must never emit inline scripts or styles.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Keep images as files: data: URIs are allowed, but files cache better and keep the CSS small.
    assetsInlineLimit: 0,
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
