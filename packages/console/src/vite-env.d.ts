/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Organisation id used for X-EMM-Auth-Session before sign-in (default APP_ORG_ID). */
  readonly VITE_APP_ORG_ID?: string;
  /** Origin of the API when it is not the console's own origin (default: same origin). */
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
