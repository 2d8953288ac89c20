import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The operator dashboard: built into admin/dist and served by the shop at /admin.
export default defineConfig({
  root: path.resolve(__dirname),
  base: "/admin/",
  plugins: [react()],
  build: {
    outDir: path.resolve(__dirname, "dist"),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // Charts are only needed on the dashboard page.
        manualChunks: { charts: ["recharts", "@mantine/charts"] },
      },
    },
  },
});
