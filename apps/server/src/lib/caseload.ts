// The caseload of an account as SQL (decision 051): the one condition every list, count and lookup
// of prisoner data adds. A caseload is the block names whose prisoners the account sees; empty means every block, and
// then no condition is added at all, so an administrator's statements are exactly those of before.
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { seesEveryBlock } from '@prison/shared';
import { alerts, cells, incidentLinks, prisoners } from '../db/schema';

/** Block names; empty: every block (and the prisoners with no cell). */
export type Caseload = readonly string[];

/** The caseload of the request's account (every block for a request without one: public routes see no prisoner). */
export function caseloadOf(request: { admin?: { blocks: readonly string[] } | null }): Caseload {
  return request.admin?.blocks ?? [];
}

/** The ids of the prisoners whose cell is in one of these blocks. */
function prisonerIdsIn(blocks: Caseload): SQL {
  return sql`(select cp.prisoner_id from ${prisoners} cp join ${cells} cc on cc.cell_id = cp.cell_id
    where cc.block = any(${sql.param([...blocks])}::text[]))`;
}

/** The prisoner id column (or expression) is one of the caseload's prisoners; undefined (no condition) for every block. */
export function prisonerInCaseload(prisonerId: SQLWrapper, blocks: Caseload): SQL | undefined {
  if (seesEveryBlock(blocks)) return undefined;
  return sql`${prisonerId} in ${prisonerIdsIn(blocks)}`;
}

/**
 * A row about a prisoner or about nobody (an alert of a staff tracker or an unassigned device): visible when it is
 * about nobody or about one of the caseload's prisoners. Undefined for every block.
 */
export function nobodyOrInCaseload(prisonerId: SQLWrapper, blocks: Caseload): SQL | undefined {
  if (seesEveryBlock(blocks)) return undefined;
  return sql`(${prisonerId} is null or ${prisonerId} in ${prisonerIdsIn(blocks)})`;
}

/** For the conditions a caller writes inside a condition it must keep: `true` for every block. */
export function prisonerInCaseloadOrTrue(prisonerId: SQLWrapper, blocks: Caseload): SQL {
  return prisonerInCaseload(prisonerId, blocks) ?? sql`true`;
}

/**
 * An incident the caseload sees (decision 093): one of its prisoners, linked or the prisoner of a linked alert, is
 * the caseload's; or it names nobody at all, which only an incident opened through the workflow can say (its people
 * are its links). An incident recorded by the spec's route with its prisoner in words and no link is for the accounts
 * of every block only, as a prisoner with no cell is. Undefined for every block.
 */
export function incidentInCaseload(incidentId: SQLWrapper, windowFrom: SQLWrapper, blocks: Caseload): SQL | undefined {
  if (seesEveryBlock(blocks)) return undefined;
  const alertsOf = (who: SQL) => sql`(select ia.id from ${alerts} ia where ${who})`;
  const linked = (condition: SQL) =>
    sql`exists (select 1 from ${incidentLinks} il where il.incident_id = ${incidentId} and (${condition}))`;
  const theirs = linked(
    sql`(il.kind = 'prisoner' and il.target_id in ${prisonerIdsIn(blocks)}) or (il.kind = 'alert' and il.target_id in ${alertsOf(sql`ia.prisoner_id in ${prisonerIdsIn(blocks)}`)})`,
  );
  const anyone = linked(sql`il.kind = 'prisoner' or (il.kind = 'alert' and il.target_id in ${alertsOf(sql`ia.prisoner_id is not null`)})`);
  return sql`(${theirs} or (${windowFrom} is not null and not ${anyone}))`;
}

/** A cell (by its block) the caseload sees; undefined for every block. */
export function blockInCaseload(block: SQLWrapper, blocks: Caseload): SQL | undefined {
  if (seesEveryBlock(blocks)) return undefined;
  return sql`${block} = any(${sql.param([...blocks])}::text[])`;
}
