/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Request timeout of the API client in milliseconds, fixed at build time (default 10000). */
  readonly VITE_API_TIMEOUT?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
