import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The operator dashboard: built into admin/dist and served by the shop at /admin.
export default defineConfig({
  root: path.resolve(__dirname),
  base: "/admin/",
  plugins: [react()],
  // The shop's browser-safe vocabulary (order statuses, money format), shared
  // with the storefront rather than copied; admin/tsconfig.json maps the same.
  resolve: { alias: { "@shop": path.resolve(__dirname, "../app/lib") } },
  build: {
    outDir: path.resolve(__dirname, "dist"),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
});
