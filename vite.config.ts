import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compileCatalogues } from './scripts/compile-catalogues.ts';

const apiPort = process.env.PORT ?? '3000';

export default defineConfig({
  plugins: [react(), compileCatalogues()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    // Maps stay in dist/ for debugging; without the comment pointing at them, and refused by
    // the server, they are not published.
    sourcemap: 'hidden',
    // Every browser the build targets knows <link rel="modulepreload">: no polyfill for it.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // A catalogue's chunk says its language ("ko-dashboard-….js"), so nothing mistakes the
        // Korean texts of the dashboard for the dashboard's code (the bench counts that).
        chunkFileNames: (chunk) => {
          const language = /\/src\/client\/locales\/(\w+)\//.exec(chunk.facadeModuleId ?? '')?.[1];
          return language ? `assets/${language}-[name]-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
});
