// Caseloads on the routes that name one prisoner, or one record of a prisoner (an alert, an escort, a tracker, an
// incident), or a cell, by id (decisions 051 and 093): a route declares, next to its schema, which field names it and what the route answers
// for an unknown id; one hook, from the matched route, answers exactly that when the record is outside the account's
// caseload, before the handler runs,
// so an officer cannot tell a prisoner of another block from one who does not exist. An account of every block
// (administrators) is not checked at all.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { seesEveryBlock } from '@prison/shared';
import { alerts, cells, devices, escorts, incidents, prisoners } from '../db/schema';
import { blockInCaseload, caseloadOf, incidentInCaseload, nobodyOrInCaseload, prisonerInCaseload, type Caseload } from '../lib/caseload';
import { HttpError } from '../lib/http-errors';

/** Which request field holds the id, and the route's own answer to an unknown id (`{id}` stands for the id). */
export interface CaseloadDeclaration {
  /**
   * A prisoner's id (his cell's block must be in the caseload); an alert's or a tracker's (about nobody, or about such
   * a prisoner); an escort's (of such a prisoner); an incident's (one of its people is such a prisoner, or it names
   * nobody; decision 093); a cell's (its block is in the caseload).
   */
  record: 'prisoner' | 'alert' | 'escort' | 'device' | 'incident' | 'cell';
  /** The parameter, query or body field holding the id. */
  field: string;
  from: 'params' | 'query' | 'body';
  notFound: string;
  /** The status of the route's answer to an unknown id: 404 unless it says otherwise (a body field: 400). */
  status?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The record this route names, checked against the account's caseload (decision 051); several when it names more
     * than one (a tracker and its new wearer, the two prisoners of a pair), checked in the order given.
     */
    caseload?: CaseloadDeclaration | readonly CaseloadDeclaration[];
  }
}

/** A route's caseload declarations as a list (none: empty). */
export function caseloadDeclarations(declared: CaseloadDeclaration | readonly CaseloadDeclaration[] | undefined): readonly CaseloadDeclaration[] {
  if (!declared) return [];
  return Array.isArray(declared) ? declared : [declared as CaseloadDeclaration];
}

/** Whether the record is one the caseload sees (false also when it does not exist: the route's 404 either way). */
async function inCaseload(
  app: FastifyInstance,
  declaration: CaseloadDeclaration,
  id: number | string,
  blocks: Caseload,
): Promise<boolean> {
  const result = (await app.db.execute(recordInCaseload(declaration.record, id, blocks))) as unknown as {
    rows: unknown[];
  };
  return result.rows.length > 0;
}

function recordInCaseload(record: CaseloadDeclaration['record'], id: number | string, blocks: Caseload): SQL {
  switch (record) {
    case 'prisoner':
      return sql`select 1 from ${prisoners} where ${prisoners.prisonerId} = ${id} and ${prisonerInCaseload(prisoners.prisonerId, blocks)}`;
    case 'alert':
      return sql`select 1 from ${alerts} where ${alerts.id} = ${id} and ${nobodyOrInCaseload(alerts.prisonerId, blocks)}`;
    case 'escort':
      return sql`select 1 from ${escorts} where ${escorts.id} = ${id} and ${prisonerInCaseload(escorts.prisonerId, blocks)}`;
    case 'device': {
      const wearer = sql`(select wp.prisoner_id from ${prisoners} wp where wp.tracking_device_id = ${devices.id} limit 1)`;
      return sql`select 1 from ${devices} where ${devices.id} = ${id} and ${nobodyOrInCaseload(wearer, blocks)}`;
    }
    case 'incident':
      return sql`select 1 from ${incidents} where ${incidents.id} = ${id} and ${incidentInCaseload(incidents.id, incidents.windowFrom, blocks)}`;
    case 'cell':
      return sql`select 1 from ${cells} where ${cells.cellId} = ${id} and ${blockInCaseload(cells.block, blocks)}`;
  }
}

function declaredId(request: FastifyRequest, declaration: CaseloadDeclaration): number | string | null {
  const from = { params: request.params, query: request.query, body: request.body }[declaration.from];
  const value = (from as Record<string, unknown> | undefined)?.[declaration.field];
  if (declaration.record === 'device' || declaration.record === 'cell') return typeof value === 'string' ? value : null;
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

export function registerCaseloadGuard(app: FastifyInstance): void {
  // After validation: the id is a number already, and bad input has had its 400.
  app.addHook('preHandler', async (request) => {
    const declarations = caseloadDeclarations(request.routeOptions.config?.caseload);
    if (declarations.length === 0 || !request.admin) return;
    const blocks = caseloadOf(request);
    if (seesEveryBlock(blocks)) return;
    for (const declaration of declarations) {
      const id = declaredId(request, declaration);
      if (id === null) continue; // an optional field left out (or null: unassign): the route's own answer
      if (await inCaseload(app, declaration, id, blocks)) continue;
      throw new HttpError(declaration.status ?? 404, declaration.notFound.replace('{id}', String(id)));
    }
  });
}
