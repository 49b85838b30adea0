import type { Db } from '../db/client';

/** Seeds a believable prison on an empty database (records feature fills this). Idempotent. */
export async function seedDemoRecords(_db: Db): Promise<void> {}
