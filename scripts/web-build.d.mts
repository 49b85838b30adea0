// Types of web-build.mjs for the TypeScript that imports it (the production-build test).
export const root: string;
export const webDist: string;
export function webInputsHash(env?: NodeJS.ProcessEnv): string;
export function webBuildIsCurrent(inputsHash?: string): boolean;
export function buildWebIfChanged(options?: { force?: boolean }): boolean;
