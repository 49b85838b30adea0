import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: { '/api': api, '/socket.io': { target: api, ws: true } },
  },
  // No source map in the build: the server would publish the app's whole source (SECURITY.md).
  build: { sourcemap: false, chunkSizeWarningLimit: 1500 },
});
