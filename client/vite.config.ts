import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The wire contract is plain TypeScript, so the client compiles it from source and never needs proto's build.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));
const apiTarget = 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: { '@vigil/proto': protoSource },
  },
  // The server replaces this with each page's CSP nonce (server/src/web/serve-client.ts); Vite puts it on the
  // tags it writes and in <meta property="csp-nonce">, where the app reads it for the style elements it creates.
  html: { cspNonce: 'VIGIL_CSP_NONCE' },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
      // The agent program and its install scripts, linked from the agent create page.
      '/downloads': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
