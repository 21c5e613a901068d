/// <reference types="vite/client" />

declare const __REPOSITORY_URL__: string;

interface ImportMetaEnv {
  /** Where the API lives; same-origin `/api` when unset. */
  readonly VITE_API_BASE_URL?: string;
}
