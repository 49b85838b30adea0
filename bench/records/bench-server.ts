// The records benches' server: the real app on a free port of this process, and a logged-in administrator's token.
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '@prison/shared';
import type {} from '../../apps/server/src/types';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import type { Database } from '../../apps/server/src/db/client';
import { createAdmin } from '../../apps/server/src/modules/admin/admin-service';

const PASSWORD = 'measure twice, cut once';

/** Builds and starts the app on `database`, creates `username` as an administrator and logs it in. */
export async function startBenchServer(database: Database, username: string) {
  const app = await buildApp({
    config: { ...loadConfig({ DEMO: 'false', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }) },
    database,
    logger: false,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`;
  await createAdmin(database.db, { username, password: PASSWORD });
  const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password: PASSWORD } });
  return { app, origin, token: login.json<{ token: string }>().token };
}
