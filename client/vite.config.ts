import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The wire contract is plain TypeScript, so the client compiles it from source and never needs proto's build.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));
const protoFiles = fileURLToPath(new URL('../proto/src/', import.meta.url));
const apiTarget = 'http://localhost:3000';
const entry = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * Two bundles: the operator app (index.html) and the public status page (status.html, src/public/), which shares
 * no UI library or dictionary with it. The server serves status.html for the status pages; in development this
 * does the same for `/status` and `/status/<slug>` (not `/status/config`, the operator app's).
 */
function statusPagesInDev(): Plugin {
  return {
    name: 'vigil-status-pages-dev',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        if (/^\/status(\/(?!config(\/|$))[^/]+)?\/?$/.test(path)) req.url = `/status.html${req.url?.slice(path.length) ?? ''}`;
        next();
      });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), statusPagesInDev()],
  resolve: {
    // `@vigil/proto/<file>` reaches one file of the contract without the barrel (the public bundle's way).
    alias: [
      { find: /^@vigil\/proto$/, replacement: protoSource },
      { find: /^@vigil\/proto\/(.+)$/, replacement: `${protoFiles}$1.ts` },
    ],
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
    rollupOptions: {
      input: { index: entry('index.html'), status: entry('status.html') },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // Form tests type and render for seconds under jsdom; a 2-core CI running other layers needs the slack.
    testTimeout: 20_000,
  },
});
