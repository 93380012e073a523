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
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
});
