// Least privilege (decision 050): the one hook that decides what a role may do, from the declaration of the
// route that matched (`config: { access }`), never from the URL text. A route that declares neither `access` nor
// `public` refuses everyone. A refusal answers 403 naming the role and the action, changes nothing and is audited.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbiddenMessage, roleMay, type Action, type Role } from '@prison/shared';
import { recordAudit } from '../lib/audit';
import type { AuthenticatedAdmin } from '../sessions/session-service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The action a session's role must be allowed (packages/shared/src/roles.ts); a typo is a type error. */
    access?: Action;
    /**
     * Body fields that need one more action when given (not null, not empty): `override_reason` on a cell move needs
     * `cells.override` besides the route's own action. Checked after validation, before the handler.
     */
    bodyFieldAccess?: Readonly<Record<string, Action>>;
  }
}

/** The answer of a route that declares no access at all: nobody may use it until someone declares who may. */
export const UNDECLARED_ACCESS_MESSAGE = 'This route declares no access: it is refused to everyone';

/** What a refusal is recorded against: an HTTP route pattern (`POST /api/v1/admins`) or a socket event. */
export interface RefusedUse {
  /** `POST /api/v1/admins/:id/disable`, or `socket requestSnapshot`. */
  target: string;
  /** The action the role lacked; null when the route declared none. */
  action: Action | null;
}

/** One audit entry per account and target per this period at most, so a flood of refusals cannot fill the trail. */
export const REFUSAL_AUDIT_PERIOD_MS = 60_000;
/** Bound on the remembered (account, target) pairs; past it the oldest are dropped. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/** When each (account, target) refusal was last written to the audit trail, in this process. */
const lastAudited = new Map<string, number>();

/** Whether this refusal should be written: the first of its account and target within the period. */
export function shouldAuditRefusal(adminId: number, target: string, now = Date.now()): boolean {
  const key = `${adminId} ${target}`;
  const last = lastAudited.get(key);
  if (last !== undefined && now - last < REFUSAL_AUDIT_PERIOD_MS) return false;
  lastAudited.delete(key);
  lastAudited.set(key, now);
  // A Map iterates in insertion order: the first keys are the oldest.
  while (lastAudited.size > MAX_REMEMBERED_REFUSALS) lastAudited.delete(lastAudited.keys().next().value!);
  return true;
}

/** Forgets the refusals written so far (tests that count the entries). */
export function forgetAuditedRefusals(): void {
  lastAudited.clear();
}

/** The refusal's message: the role and the action, or that the route declares none. */
export function refusalMessage(role: Role, action: Action | null): string {
  return action ? forbiddenMessage(role, action) : UNDECLARED_ACCESS_MESSAGE;
}

/**
 * Writes the refusal to the audit trail (at most once per account and target per minute). A failed write is logged,
 * never turned into another answer: the refusal stands either way.
 */
export async function auditRefusal(
  app: FastifyInstance,
  admin: AuthenticatedAdmin,
  ip: string | null,
  refused: RefusedUse,
): Promise<void> {
  if (!shouldAuditRefusal(admin.id, refused.target)) return;
  try {
    await recordAudit(
      app.db,
      { adminId: admin.id, actor: admin.username, ip },
      {
        action: 'access.refused',
        entity: 'access',
        entityId: refused.target,
        after: { role: admin.role, action: refused.action, target: refused.target },
      },
    );
  } catch (error) {
    app.databaseHealth.failed(error, 'auditing a refused action');
  }
}

/** The route pattern of the matched route, as the audit trail names it (never the URL text the client sent). */
const routeTarget = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? ''}`;

async function refuse(request: FastifyRequest, reply: FastifyReply, admin: AuthenticatedAdmin, action: Action | null) {
  await auditRefusal(request.server, admin, request.ip, { target: routeTarget(request), action });
  return reply.status(403).send({ message: refusalMessage(admin.role, action) });
}

/** A body field that is given: not absent, null or blank. */
const given = (value: unknown) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

export function registerAccess(app: FastifyInstance) {
  // After authentication (plugins/auth) and the account gate: `request.admin` is the session's account.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const config = request.routeOptions.config;
    if (config?.public) return;
    const admin = request.admin;
    // The auth hook has answered 401 already; nothing to decide without an account.
    if (!admin) return;
    const action = config?.access;
    if (!action) return refuse(request, reply, admin, null);
    if (!roleMay(admin.role, action)) return refuse(request, reply, admin, action);
  });

  // A field that asks for more (an override) is checked once the body is parsed and validated.
  app.addHook('preHandler', async (request, reply) => {
    const fields = request.routeOptions.config?.bodyFieldAccess;
    const admin = request.admin;
    if (!fields || !admin) return;
    const body = request.body as Record<string, unknown> | null | undefined;
    if (!body || typeof body !== 'object') return;
    for (const [field, action] of Object.entries(fields)) {
      if (given(body[field]) && !roleMay(admin.role, action)) return refuse(request, reply, admin, action);
    }
  });
}
