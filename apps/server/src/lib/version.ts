// The running product's version: package.json's version and the git commit it was built from, read once per process.
// The commit comes from `git rev-parse` in a checkout, else from build-info.json written by the build
// (scripts/write-build-info.mjs, for an install without .git), else it is 'unknown' (decision 059).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCT_ROOT } from './product-root';

export interface ProductVersion {
  /** package.json's version, e.g. 0.23.0. */
  version: string;
  /** The short commit hash, or 'unknown'. */
  commit: string;
}

export { PRODUCT_ROOT };
export const BUILD_INFO_FILE = 'build-info.json';

function readJson(file: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function gitCommit(root: string): string | null {
  // A worktree's .git is a file; either way git answers.
  if (!existsSync(path.join(root, '.git'))) return null;
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^[0-9a-f]{4,40}$/.test(hash) ? hash : null;
  } catch {
    return null;
  }
}

/** Reads the version of the product installed at `root` (no cache: tests pass their own folders). */
export function readProductVersion(root = PRODUCT_ROOT): ProductVersion {
  const packageVersion = readJson(path.join(root, 'package.json'))?.version;
  const built = readJson(path.join(root, BUILD_INFO_FILE));
  const builtCommit = typeof built?.commit === 'string' && /^[0-9a-f]{4,40}$/.test(built.commit) ? built.commit : null;
  return {
    version: typeof packageVersion === 'string' ? packageVersion : 'unknown',
    commit: gitCommit(root) ?? builtCommit ?? 'unknown',
  };
}

let cached: ProductVersion | null = null;

/** This process's version, read at its start. */
export function productVersion(): ProductVersion {
  cached ??= readProductVersion();
  return cached;
}

/** As people read it: `0.23.0 (3f2a1bc)`. */
export const versionText = ({ version, commit }: ProductVersion): string => `${version} (${commit})`;
