// Types of scripts/chromium.mjs, for the TypeScript that launches Chromium (e2e, bench/map).
export const CHROMIUM_PATH: string;
export const CHROMIUM_ARGS: readonly string[];
export function chromiumLaunchOptions(): { executablePath: string; args: string[] };
