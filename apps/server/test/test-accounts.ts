// Accounts for the tests, inserted directly with a password hash made once per password and worker: argon2id at the
// production cost is most of a test app's setup when every suite hashes the same few passwords again. The password
// rule is the admin service's and has tests of its own; these accounts only need to log in.
import { admins } from '../src/db/schema';
import type { DbOrTx } from '../src/db/client';
import { hashPassword } from '../src/modules/admin/password';

const hashes = new Map<string, Promise<string>>();

function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
}

/** An active administrator (the schema's default role and every block) with this password. */
export async function createTestAccount(db: DbOrTx, input: { username: string; name?: string; password: string }) {
  const [row] = await db
    .insert(admins)
    .values({ username: input.username, name: input.name ?? input.username, passwordHash: await hashOnce(input.password) })
    .returning({ id: admins.id, username: admins.username, name: admins.name });
  return row!;
}
