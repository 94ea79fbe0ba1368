import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('./web', import.meta.url));

// The browser app lives in web/; the server serves dist/web in production and
// the dev server forwards /api to it. Vitest reads this file too, so test
// options go in a `test` block added next to these keys.
export default defineConfig({
  root: webRoot,
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
  },
  server: {
    port: 5173,
    proxy: {
      // The API started by `npm run dev` (same PORT as the server reads).
      '/api': `http://127.0.0.1:${process.env.PORT || 5000}`,
    },
  },
});
