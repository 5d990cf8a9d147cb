import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // `.br` (quality 11) and `.gz` (level 9) beside each HTML, JS, CSS and SVG file, kept only when
    // smaller; the server sends them by Accept-Encoding (decision record 0007). Source maps are
    // left out: only developer tools fetch them, compressed per request.
    compression({ algorithms: ['brotliCompress', 'gzip'] }),
  ],
  resolve: { conditions: ['@linkwise/source'] },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/billing': 'http://127.0.0.1:3000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
});
