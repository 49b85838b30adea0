// Caseloads on the routes that name one prisoner or one alert (issue 22 item 2, decision 051): a route declares, next to
// its schema, which parameter names the prisoner (or alert) and what it answers for an unknown id; one hook, from the
// matched route, answers that same 404 when the record is outside the account's caseload, before the handler runs,
// so an officer cannot tell a prisoner of another block from one who does not exist. An account of every block
// (administrators) is not checked at all.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { seesEveryBlock } from '@prison/shared';
import { alerts, prisoners } from '../db/schema';
import { caseloadOf, nobodyOrInCaseload, prisonerInCaseload, type Caseload } from '../lib/caseload';
import { notFound } from '../lib/http-errors';

/** Which request field holds the id, and the route's own answer to an unknown id (`{id}` stands for the id). */
export interface CaseloadDeclaration {
  /** A prisoner's id (its cell's block must be in the caseload), or an alert's (about nobody, or such a prisoner). */
  record: 'prisoner' | 'alert';
  /** The parameter or query field holding the id. */
  field: string;
  from: 'params' | 'query';
  notFound: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The record this route names, checked against the account's caseload (decision 051). */
    caseload?: CaseloadDeclaration;
  }
}

/** Whether the record is one the caseload sees (false also when it does not exist: the route's 404 either way). */
async function inCaseload(app: FastifyInstance, declaration: CaseloadDeclaration, id: number, blocks: Caseload): Promise<boolean> {
  const condition =
    declaration.record === 'prisoner'
      ? sql`select 1 from ${prisoners} where ${prisoners.prisonerId} = ${id} and ${prisonerInCaseload(prisoners.prisonerId, blocks)}`
      : sql`select 1 from ${alerts} where ${alerts.id} = ${id} and ${nobodyOrInCaseload(alerts.prisonerId, blocks)}`;
  const result = (await app.db.execute(condition)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

function declaredId(request: FastifyRequest, declaration: CaseloadDeclaration): number | null {
  const source = (declaration.from === 'params' ? request.params : request.query) as Record<string, unknown> | undefined;
  const value = source?.[declaration.field];
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

export function registerCaseloadGuard(app: FastifyInstance): void {
  // After validation: the id is a number already, and bad input has had its 400.
  app.addHook('preHandler', async (request) => {
    const declaration = request.routeOptions.config?.caseload;
    if (!declaration || !request.admin) return;
    const blocks = caseloadOf(request);
    if (seesEveryBlock(blocks)) return;
    const id = declaredId(request, declaration);
    if (id === null) return; // an optional field left out: the route's own list, narrowed by its query
    if (!(await inCaseload(app, declaration, id, blocks))) throw notFound(declaration.notFound.replace('{id}', String(id)));
  });
}
