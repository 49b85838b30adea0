// Imported first by main.tsx, before any schema is defined: zod probes for eval when it builds object schemas, and
// under the app's Content-Security-Policy (no eval) that probe is reported as a violation although it is caught.
// zod reads its settings from this global when it loads, so the entry turns the probe off without carrying zod,
// which loads only with the pages that validate.
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
