import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { conditions: ['@linkwise/source'] },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/billing': 'http://127.0.0.1:3000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
});
