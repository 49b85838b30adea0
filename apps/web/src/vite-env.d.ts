/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** '1' in builds made for end-to-end tests and benchmarks: keeps the test hooks (see live-map-page). */
  readonly VITE_TEST_HOOKS?: string;
}
