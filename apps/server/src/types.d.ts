import 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { SecretBox } from './lib/secret-box';
import type { AuthenticatedAdmin } from './sessions/session-service';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    /** Seals and opens two-factor secrets at rest (decision 054). */
    secretBox: SecretBox;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every non-public /api/v1 route. */
    admin: AuthenticatedAdmin | null;
  }
  interface FastifyContextConfig {
    /** Public by design: login, token verification, health, device ingestion (docs/CLIENT-CONTRACT.md). */
    public?: boolean;
  }
}
