// Where the product is installed: the nearest folder above this code holding the root package.json, in a checkout
// (running the TypeScript sources) as in a release archive (running apps/server/dist; decision 061).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PRODUCT_PACKAGE_NAME = 'prison-tracker';

function isProductRoot(dir: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === PRODUCT_PACKAGE_NAME;
  } catch {
    return false;
  }
}

/** The first folder from `start` upwards that is the product's root; throws when there is none. */
export function findProductRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (isProductRoot(dir)) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no ${PRODUCT_PACKAGE_NAME} package.json above ${start}`);
  }
}

export const PRODUCT_ROOT = findProductRoot(path.dirname(fileURLToPath(import.meta.url)));
