// Files only the service can read (decision 094): DATA_DIR, everything in it and the key file are its owner's alone
// (folders 0700, files 0600), whatever the umask and whatever modes the embedded engine gives its own files (PGlite
// writes most of them 0666).
import { chmodSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/** Group and other bits: any of them set is wider than the owner alone. */
const OTHERS = 0o077;

export interface Narrowed {
  path: string;
  /** The mode it had, octal (e.g. 0666). */
  was: string;
}

function narrow(file: string, stats: Stats, narrowed: Narrowed[]): void {
  if ((stats.mode & OTHERS) === 0) return;
  chmodSync(file, stats.mode & 0o7700);
  narrowed.push({ path: file, was: `0${(stats.mode & 0o777).toString(8)}` });
}

/**
 * Takes group and other permissions away from `root` and everything under it; symbolic links inside are left alone
 * (not followed: what they point to is not ours to change). Returns what was wider; nothing when `root` is missing.
 */
export function keepToOwner(dir: string): Narrowed[] {
  const root = path.resolve(dir);
  const narrowed: Narrowed[] = [];
  let stats: Stats;
  try {
    stats = statSync(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return narrowed;
    throw error;
  }
  narrow(root, stats, narrowed);
  if (!stats.isDirectory()) return narrowed;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      let entry: Stats;
      try {
        entry = lstatSync(file);
      } catch {
        continue; // removed meanwhile (the engine's temporary files)
      }
      if (entry.isSymbolicLink()) continue;
      narrow(file, entry, narrowed);
      if (entry.isDirectory()) walk(file);
    }
  };
  walk(root);
  return narrowed;
}

/** For a log line: how many, and the first few with the modes they had. */
export function describeNarrowed(narrowed: Narrowed[], shown = 5): { count: number; examples: string[] } {
  return { count: narrowed.length, examples: narrowed.slice(0, shown).map((n) => `${n.path} (was ${n.was})`) };
}
