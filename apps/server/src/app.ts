// Builds the Fastify app without listening, so tests call `app.inject` and the server process calls `listen`.
import { useAuditChainKey } from './lib/audit-chain';
import { caseloadDeclarations, registerCaseloadGuard, type CaseloadDeclaration } from './plugins/caseload-guard';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import { API_PREFIX, type Action } from '@prison/shared';
import { serializeErrorWithoutStatement } from './lib/database-errors';
import { createSecretBox, SECRET_KEY_BYTES } from './lib/secret-box';
import { productVersion, versionText } from './lib/version';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerCluster } from './cluster';
import { clusterPorts, composeTracking } from './composition';
import { apiModules } from './modules';
import healthRoutes from './modules/health/routes';
import metricsRoutes from './modules/metrics/routes';
import { registerServerMetrics } from './modules/metrics/server-metrics';
import { registerAccess } from './plugins/access';
import { registerAccountGate } from './plugins/account-gate';
import { registerAuth } from './plugins/auth';
import { registerDatabaseHealth } from './plugins/database-health';
import { registerErrorHandler } from './plugins/error-handler';
import { registerHeavyQueryLimit } from './plugins/heavy-queries';
import { registerJsonBodies } from './plugins/json-bodies';
import { registerOpenApi } from './plugins/openapi';
import { registerRealtime } from './plugins/realtime';
import { registerRequestLog } from './plugins/request-log';
import { registerSecurity } from './plugins/security';
import { defaultWebDist, registerWeb } from './plugins/web';

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** The action its declaration needs (decision 050); undefined for a public route, or one that declares none. */
  access: Action | undefined;
  /** Body fields that need one more action when given (`override_reason`: `cells.override`). */
  bodyFieldAccess: Readonly<Record<string, Action>> | undefined;
  /** Takes form-encoded bodies by design (`config.formBody`); every other route answers 415 to a non-JSON body. */
  formBody: boolean;
  /** Takes multipart/form-data only (`config.multipartBody`, file uploads; decision 065). */
  multipartBody: boolean;
  /** A heavy question (`config.heavyQuery`): counted against the account's running heavy questions. */
  heavyQuery: boolean;
  /** The records the route names, checked against the caseload (decision 051); undefined when none. */
  caseload?: readonly CaseloadDeclaration[];
  /** The route's declared zod body and query schemas, for the tests that enumerate every field of every route. */
  body: unknown;
  query: unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RegisteredRoute[];
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /**
   * The key that seals two-factor secrets (lib/secret-key.ts loads it for the process). Tests and benchmarks leave it
   * out: their fresh databases get a random key of their own.
   */
  secretKey?: Buffer;
}

/** Logger options as given, with the error serializer that keeps SQL out of the log. */
function withSafeErrors(logger: FastifyServerOptions['logger'], level: string): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  const options = typeof logger === 'object' && logger ? logger : { level };
  return { ...options, serializers: { err: serializeErrorWithoutStatement, ...options.serializers } };
}

export async function buildApp({ config, database, logger, secretKey }: BuildAppOptions) {
  const app = Fastify({
    logger: withSafeErrors(logger, config.LOG_LEVEL),
    // One line per request instead (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    // A hop count as proxy-addr reads one (Fastify's types take it only as a function).
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (_address: string, hop: number) => hop < (config.TRUST_PROXY as number)
        : config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  // The first line of the log names the build that writes it (decision 059).
  const { version, commit } = productVersion();
  app.log.info(
    { version, commit, node: config.NODE_NAME },
    `Prison Control ${versionText({ version, commit })} starting`,
  );

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('secretBox', createSecretBox(secretKey ?? randomBytes(SECRET_KEY_BYTES)));
  // The audit chain is extended with a key derived from the server's (decision 104); tests' apps keep a key of their own.
  if (secretKey) useAuditChainKey(secretKey);
  // Kept for the test that proves every route is authenticated unless public by design.
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      registeredRoutes.push({
        method,
        url: route.url,
        // Read when asked: a later onRoute hook may still declare them (the web app's files, plugins/web; the API
        // documentation's routes, plugins/openapi).
        get public() {
          return !!route.config?.public;
        },
        get access() {
          return route.config?.access;
        },
        get bodyFieldAccess() {
          return route.config?.bodyFieldAccess;
        },
        formBody: !!route.config?.formBody,
        multipartBody: !!route.config?.multipartBody,
        heavyQuery: !!route.config?.heavyQuery,
        body: route.schema?.body,
        query: route.schema?.querystring,
        caseload: route.config?.caseload ? caseloadDeclarations(route.config.caseload) : undefined,
      });
    }
  });

  // First: their hooks see every route, and the counters exist before the modules that feed them.
  registerServerMetrics(app);
  registerRequestLog(app);
  registerDatabaseHealth(app);
  registerErrorHandler(app);
  await registerSecurity(app);
  await app.register(cookie);
  await app.register(formbody);
  registerJsonBodies(app);
  await registerOpenApi(app);
  registerAuth(app);
  registerAccountGate(app);
  registerAccess(app);
  // After the role's check: a refused action is 403 whatever the record; then a record outside the caseload is unknown.
  registerCaseloadGuard(app);
  registerHeavyQueryLimit(app, { perAccount: config.HEAVY_QUERIES_PER_ACCOUNT, total: config.HEAVY_QUERIES_TOTAL });
  registerRealtime(app);
  registerCluster(app, clusterPorts);
  await composeTracking(app);

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  for (const module of apiModules) await app.register(module.routes, { prefix: API_PREFIX });
  await registerWeb(app, config.WEB_DIST ?? defaultWebDist);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
