// Reading prisoners as the API shows them: joined with their cell's block and their tracking device's name.
import { and, eq, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Prisoner, PrisonerFlagKind, PrisonerListQuery } from '@prison/shared';
import { seesEveryBlock } from '@prison/shared';
import type { Caseload } from '../../lib/caseload';
import type { DbOrTx } from '../../db/client';
import { cells, devices, prisonerFlags, prisonerPhotos, prisoners, prisonerSearchText } from '../../db/schema';
import { containsPattern, startsWithPattern } from '../../lib/like-patterns';
import { announceCacheChange } from '../../lib/cache-announcer';
import { ShortLivedCache } from '../../lib/short-lived-cache';
import { CoalescedReads } from '../../lib/coalesced-reads';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** The kinds of his flags in force now (decision 101), in a fixed order for the badges; other modules' reads of
 * `prisoners` use it too, so a count sheet or a round shows the same badges as the record. */
export const activeFlagKinds = sql<PrisonerFlagKind[]>`array(select distinct f.kind from ${prisonerFlags} f where f.prisoner_id = ${prisoners}.prisoner_id
  and f.cleared_at is null and f.starts_at <= now() and (f.ends_at is null or f.ends_at > now()) order by f.kind)`;
export const photoDigest = sql<string | null>`(select p.digest from ${prisonerPhotos} p where p.prisoner_id = ${prisoners}.prisoner_id)`;

const prisonerColumns = {
  prisoner_id: prisoners.prisonerId,
  prison_number: prisoners.prisonNumber,
  first_name: prisoners.firstName,
  last_name: prisoners.lastName,
  date_of_birth: prisoners.dateOfBirth,
  gender: prisoners.gender,
  national_id: prisoners.nationalId,
  entry_date: prisoners.entryDate,
  release_date: prisoners.releaseDate,
  status: prisoners.status,
  cell_id: prisoners.cellId,
  // Scalar subqueries, not joins: the planner prepares them in a fraction of the time a three-table join takes,
  // and planning was the larger part of PostgreSQL's work for a page. Written out, because in a one-table select
  // Drizzle drops the table names from columns, which would make `cell_id = cell_id` compare cells with itself.
  cell_block: sql<string | null>`(select c.block from ${cells} c where c.cell_id = ${prisoners}.cell_id)`,
  behavior_record: prisoners.behaviorRecord,
  medical_history: prisoners.medicalHistory,
  tracking_device_id: prisoners.trackingDeviceId,
  tracking_device_name: sql<
    string | null
  >`(select d.name from ${devices} d where d.id = ${prisoners}.tracking_device_id)`,
  archived_at: prisoners.archivedAt,
  archived_by: prisoners.archivedBy,
  photo_digest: photoDigest,
  flags: activeFlagKinds,
  created_at: prisoners.createdAt,
  updated_at: prisoners.updatedAt,
};

type PrisonerRow = Omit<Prisoner, 'archived_at' | 'created_at' | 'updated_at'> & {
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

function toPrisoner(row: PrisonerRow): Prisoner {
  return {
    ...row,
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A timestamp as JavaScript's `toISOString` writes it (UTC, milliseconds truncated, "Z"), from PostgreSQL. */
const isoMillis = (column: AnyPgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A prisoner as the API's JSON, built by PostgreSQL with the same fields, order and values as `toPrisoner` (the
 * prisoner test compares the two). For the list page: reading 20 rows of 19 columns through the driver and the ORM,
 * then checking and writing them out again through the zod response schema, cost the server's one thread more than
 * the rest of the request (decision 049).
 */
const prisonerJson = sql`json_build_object(
  'prisoner_id', ${prisoners.prisonerId}, 'prison_number', ${prisoners.prisonNumber}, 'first_name', ${prisoners.firstName}, 'last_name', ${prisoners.lastName},
  'date_of_birth', ${prisoners.dateOfBirth}, 'gender', ${prisoners.gender}, 'national_id', ${prisoners.nationalId},
  'entry_date', ${prisoners.entryDate}, 'release_date', ${prisoners.releaseDate}, 'status', ${prisoners.status},
  'cell_id', ${prisoners.cellId}, 'cell_block', ${prisonerColumns.cell_block},
  'behavior_record', ${prisoners.behaviorRecord}, 'medical_history', ${prisoners.medicalHistory},
  'tracking_device_id', ${prisoners.trackingDeviceId}, 'tracking_device_name', ${prisonerColumns.tracking_device_name},
  'archived_at', ${isoMillis(prisoners.archivedAt)}, 'archived_by', ${prisoners.archivedBy},
  'photo_digest', ${photoDigest}, 'flags', ${activeFlagKinds},
  'created_at', ${isoMillis(prisoners.createdAt)}, 'updated_at', ${isoMillis(prisoners.updatedAt)})`;

function selectPrisoners(db: DbOrTx) {
  return db.select(prisonerColumns).from(prisoners);
}

/** One prisoner by id, archived or not: details and history still find an archived prisoner (decision 042). */
export async function findPrisoner(db: DbOrTx, prisonerId: number): Promise<Prisoner | null> {
  const [row] = await selectPrisoners(db).where(eq(prisoners.prisonerId, prisonerId));
  return row ? toPrisoner(row) : null;
}

/** Case-insensitive "starts with", written so the lower(name) text_pattern_ops indexes serve it. */
const startsWith = (column: AnyPgColumn, pattern: SQLWrapper) => sql`lower(${column}) like ${pattern}`;

/**
 * Which filters a list query uses. Each combination gets its own prepared statements (built once per database
 * handle, values bound per request): building the same SQL text on every request cost more than running it.
 */
interface ListShape {
  q: boolean;
  /** `q` is a number, so it can also be a prisoner id. */
  qIsId: boolean;
  firstName: boolean;
  lastName: boolean;
  status: boolean;
  /** The archived records instead of the others (decision 042). */
  archived: boolean;
  /** Only the prisoners of some blocks: the account's caseload (decision 051), bound as an array. */
  caseload: boolean;
}

/** A search text that could be a prisoner's id (a serial, so at most 9 digits). */
const looksLikeId = (q: string | undefined) => q !== undefined && /^\d{1,9}$/.test(q);

function shapeOf(query: PrisonerListQuery, caseload: Caseload): ListShape {
  return {
    caseload: !seesEveryBlock(caseload),
    q: Boolean(query.q),
    qIsId: looksLikeId(query.q),
    firstName: Boolean(query.first_name),
    lastName: Boolean(query.last_name),
    status: Boolean(query.status),
    archived: query.archived === 'true',
  };
}

const shapeKey = (shape: ListShape) =>
  Object.entries(shape)
    .map(([filter, used]) => (used ? filter : ''))
    .join('_');

/** The values bound to a shape's placeholders. */
function filterValues(query: PrisonerListQuery, caseload: Caseload) {
  return {
    ...(seesEveryBlock(caseload) ? {} : { blocks: [...caseload].sort() }),
    q: query.q ? containsPattern(query.q.toLowerCase()) : '',
    qId: looksLikeId(query.q) ? Number(query.q) : 0,
    // Name filters match from the start of the name ("Smi" finds Smith), as a roll-call list is read.
    firstName: query.first_name ? startsWithPattern(query.first_name.toLowerCase()) : '',
    lastName: query.last_name ? startsWithPattern(query.last_name.toLowerCase()) : '',
    status: query.status ?? '',
  };
}

function listConditions(shape: ListShape): SQL | undefined {
  const conditions: SQL[] = [shape.archived ? isNotNull(prisoners.archivedAt) : isNull(prisoners.archivedAt)];
  if (shape.q) {
    // Name, full name, nationality, cell or prison number contain the text (one trigram-indexed text), or it is the prisoner's id.
    const matches = sql`${prisonerSearchText(prisoners)} like ${sql.placeholder('q')}`;
    conditions.push(shape.qIsId ? or(matches, eq(prisoners.prisonerId, sql.placeholder('qId')))! : matches);
  }
  if (shape.firstName) conditions.push(startsWith(prisoners.firstName, sql.placeholder('firstName')));
  if (shape.lastName) conditions.push(startsWith(prisoners.lastName, sql.placeholder('lastName')));
  if (shape.status) conditions.push(eq(prisoners.status, sql.placeholder('status')));
  if (shape.caseload) {
    // The cell's block is one of the caseload's (lib/caseload's condition, with the blocks bound per request).
    conditions.push(sql`${prisoners.cellId} in (select cc.cell_id from ${cells} cc where cc.block = any(${sql.placeholder('blocks')}::text[]))`);
  }
  return and(...conditions);
}

/**
 * Every page starts from an anchor: the sort key of its first row. Page 1 starts at the top; the anchors of the
 * others come from one walk of the index, cached like the totals. A page is then one index walk of `limit` entries
 * (page 2,500 of 100,000 rows does not skip 50,000 entries), and with no OFFSET and a literal LIMIT its statement
 * has a plan PostgreSQL can prepare once and reuse: planning used to cost more than running it.
 */
/** `at` is created_at as PostgreSQL prints it: full microsecond precision, which a JS Date would lose. */
type Anchor = [at: string, id: number];

/** The top of the list: every row sorts at or after it. */
const TOP: Anchor = ['infinity', 2_147_483_647];

/** `name` (filter shape and page size) names the prepared statements, so it must say everything the SQL depends on. */
function buildListStatements(db: DbOrTx, shape: ListShape, limit: number, name: string) {
  const where = listConditions(shape);
  const fromAnchor = sql`(${prisoners.createdAt}, ${prisoners.prisonerId}) <= (${sql.placeholder('anchorAt')}::timestamptz, ${sql.placeholder('anchorId')}::int)`;
  // Written out: Drizzle would send the LIMIT as a parameter, and a plan for an unknown LIMIT is never reused.
  const pageIds = sql`select ${prisoners.prisonerId} from ${prisoners} where ${and(where, fromAnchor)}
    order by ${prisoners.createdAt} desc, ${prisoners.prisonerId} desc limit ${sql.raw(String(limit))}`;
  const ranked = db
    .select({
      at: sql<string>`${prisoners.createdAt}`.as('at'),
      id: sql<number>`${prisoners.prisonerId}`.as('id'),
      n: sql<number>`row_number() over (order by ${prisoners.createdAt} desc, ${prisoners.prisonerId} desc)`.as('n'),
    })
    .from(prisoners)
    .where(where)
    .as('ranked');
  return {
    /** The page's prisoners as one JSON array text, newest first, which the route sends as it is. */
    page: db
      .select({
        json: sql<string>`coalesce(json_agg(${prisonerJson} order by ${prisoners.createdAt} desc, ${prisoners.prisonerId} desc), '[]')::text`,
      })
      .from(prisoners)
      .where(sql`${prisoners.prisonerId} = any(array(${pageIds}))`)
      .prepare(`prisoner_page_json_${name}`),
    count: db
      .select({ n: sql<number>`count(*)::int` })
      .from(prisoners)
      .where(where)
      // One statement per filter, whatever the page size (same name, same text on every connection).
      .prepare(`prisoner_count_${shapeKey(shape)}`),
    /**
     * The first row of every page after the first, in page order: one JSON value, because parsing and mapping 5,000
     * rows of two columns cost the server's thread 15 ms, and JSON.parse of the same takes one.
     */
    anchors: db
      .select({
        starts: sql<Anchor[] | null>`json_agg(json_build_array(${ranked.at}::text, ${ranked.id}) order by ${ranked.n})`,
      })
      .from(ranked)
      .where(sql`${ranked.n} % ${sql.raw(String(limit))} = 1 and ${ranked.n} > 1`)
      .prepare(`prisoner_anchors_${name}`),
  };
}

type ListStatements = ReturnType<typeof buildListStatements>;

/** Prepared statements belong to the handle they were built on (a pool, or one transaction). */
const statementsByHandle = new WeakMap<DbOrTx, Map<string, ListStatements>>();

function listStatements(db: DbOrTx, shape: ListShape, limit: number): ListStatements {
  let byName = statementsByHandle.get(db);
  if (!byName) statementsByHandle.set(db, (byName = new Map()));
  const name = `${shapeKey(shape)}_${limit}`;
  let statements = byName.get(name);
  if (!statements) byName.set(name, (statements = buildListStatements(db, shape, limit, name)));
  return statements;
}

/**
 * List totals and page anchors, cached per filter: counting 100,000 rows on every page view costs more than the page
 * itself. Every prisoner write in this process invalidates both after its commit (see ShortLivedCache for the
 * guarantees). In a cluster the write is announced to the other processes, which drop theirs within milliseconds
 * (decision 036); a write the announcement missed (the database CLI) shows in the totals within 2 s and moves page
 * boundaries within 10 s: anchors take a walk of the whole list to rebuild, and the rows on a page are read live anyway.
 */
const totals = new ShortLivedCache<number>(2_000, { refreshAfterMs: 1_000 });
const anchors = new ShortLivedCache<Anchor[]>(10_000, { refreshAfterMs: 5_000 });

/** Drops this process's cached totals and anchors (also when another process announced a prisoner write). */
export function invalidatePrisonerCaches(): void {
  totals.invalidate();
  anchors.invalidate();
}

/** After a prisoner write's commit: this process's caches and, in a cluster, the other processes'. */
export function prisonersChanged(): void {
  invalidatePrisonerCaches();
  announceCacheChange('prisoners');
}

/**
 * Pages asked for at the same moment, per handle: one statement answers every request for the same page of the same
 * filter and caseload that arrived before it was sent (decision 070). Never a read sent before the request came.
 */
const pageReads = new WeakMap<DbOrTx, CoalescedReads<string>>();

function pageReadsOf(db: DbOrTx): CoalescedReads<string> {
  let reads = pageReads.get(db);
  if (!reads) pageReads.set(db, (reads = new CoalescedReads()));
  return reads;
}

/** One page, newest first with a stable tie-break, as the JSON text of its prisoners, and the total matching the same conditions. */
export async function listPrisonersJson(db: DbOrTx, query: PrisonerListQuery, caseload: Caseload = []): Promise<{ prisonersJson: string; total: number }> {
  const shape = shapeOf(query, caseload);
  const statements = listStatements(db, shape, query.limit);
  const values = filterValues(query, caseload);
  // The shape too: the archived list binds the same values as the active one.
  const filterKey = `${shapeKey(shape)}|${JSON.stringify(values)}`;

  const readPage = async () => {
    let anchor: Anchor | undefined = TOP;
    if (query.page > 1) {
      const pageStarts = await anchors.get(
        `${filterKey}|${query.limit}`,
        async () => (await statements.anchors.execute(values))[0]?.starts ?? [],
      );
      anchor = pageStarts[query.page - 2];
      // Past the last page (by the anchors, which agree with the cached total): nothing to read.
      if (!anchor) return '[]';
    }
    const start = anchor;
    return pageReadsOf(db).read(`${filterKey}|${query.limit}|${start[0]}|${start[1]}`, async () => {
      const [row] = await statements.page.execute({ ...values, anchorAt: start[0], anchorId: start[1] });
      return row?.json ?? '[]';
    });
  };
  const [prisonersJson, total] = await Promise.all([
    readPage(),
    totals.get(filterKey, async () => Number((await statements.count.execute(values))[0]?.n ?? 0)),
  ]);
  return { prisonersJson, total };
}
