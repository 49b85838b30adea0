// Site plans (decision 065): checked uploads stored in the database (one copy for every process of a cluster), listed,
// replaced, deleted, one of them the default every map draws. Every write is audited.
import { createHash } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { API_PREFIX, sitePlanFields, type SitePlan } from '@prison/shared';
import type { Db } from '../../db/client';
import { sitePlans } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';
import { checkPlanImage } from './image-check';
import type { PlanUpload } from './upload-reader';

export const PLAN_NOT_FOUND = 'Site plan not found';

type PlanRow = Omit<typeof sitePlans.$inferSelect, 'image'>;
const listed = {
  id: sitePlans.id,
  name: sitePlans.name,
  contentType: sitePlans.contentType,
  byteSize: sitePlans.byteSize,
  digest: sitePlans.digest,
  width: sitePlans.width,
  height: sitePlans.height,
  points: sitePlans.points,
  isDefault: sitePlans.isDefault,
  createdAt: sitePlans.createdAt,
  updatedAt: sitePlans.updatedAt,
};

const toPlan = (row: PlanRow): SitePlan => ({
  id: row.id,
  name: row.name,
  content_type: row.contentType as SitePlan['content_type'],
  width: row.width,
  height: row.height,
  byte_size: row.byteSize,
  points: row.points,
  is_default: row.isDefault,
  image_url: `${API_PREFIX}/site-plans/${row.id}/image?v=${row.digest.slice(0, 16)}`,
  updated_at: row.updatedAt.toISOString(),
});

/** The audit's picture of a plan: never its bytes. */
const audited = (plan: SitePlan) => ({ name: plan.name, content_type: plan.content_type, byte_size: plan.byte_size, points: plan.points, is_default: plan.is_default });

function checkedFields(fields: Record<string, string>) {
  const parsed = sitePlanFields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`${issue.path.join('.') || 'request'}: ${issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message}`);
  }
  return parsed.data;
}

function checkedFile(file: Buffer) {
  const image = checkPlanImage(file);
  if (!image.ok) throw badRequest(`file: ${image.problem}`);
  return { ...image, image: file, byteSize: file.length, digest: createHash('sha256').update(file).digest('hex') };
}

export async function listPlans(db: Db): Promise<SitePlan[]> {
  const rows = await db.select(listed).from(sitePlans).orderBy(asc(sitePlans.id));
  return rows.map(toPlan);
}

export async function readPlanImage(db: Db, id: number) {
  const [row] = await db
    .select({ image: sitePlans.image, contentType: sitePlans.contentType, digest: sitePlans.digest })
    .from(sitePlans)
    .where(eq(sitePlans.id, id));
  if (!row) throw notFound(PLAN_NOT_FOUND);
  return row;
}

export async function createPlan(db: Db, upload: PlanUpload, who: AuditActor): Promise<SitePlan> {
  // Fields first: they are cheap to check, and say what is missing before the file's content is read.
  const fields = checkedFields(upload.fields);
  if (!upload.file) throw badRequest('file: is required');
  const file = checkedFile(upload.file);
  return db.transaction(async (tx) => {
    // The first plan is the default: a new prison's maps draw it without another step.
    const [{ count }] = (await tx.select({ count: sql<number>`count(*)::int` }).from(sitePlans)) as [{ count: number }];
    const [row] = await tx
      .insert(sitePlans)
      .values({ name: fields.name, points: fields.points, contentType: file.contentType, image: file.image, byteSize: file.byteSize, digest: file.digest, width: file.width, height: file.height, isDefault: count === 0 })
      .returning(listed);
    const plan = toPlan(row!);
    await recordAudit(tx, who, { action: 'site_plan.create', entity: 'site_plan', entityId: plan.id, after: audited(plan) });
    return plan;
  });
}

/** Replaces a plan's name and points, and its image when a file is sent (a new drawing placed again). */
export async function replacePlan(db: Db, id: number, upload: PlanUpload, who: AuditActor): Promise<SitePlan> {
  const fields = checkedFields(upload.fields);
  const file = upload.file ? checkedFile(upload.file) : undefined;
  return db.transaction(async (tx) => {
    const [before] = await tx.select(listed).from(sitePlans).where(eq(sitePlans.id, id)).for('update');
    if (!before) throw notFound(PLAN_NOT_FOUND);
    const [row] = await tx
      .update(sitePlans)
      .set({
        name: fields.name,
        points: fields.points,
        ...(file && { contentType: file.contentType, image: file.image, byteSize: file.byteSize, digest: file.digest, width: file.width, height: file.height }),
        updatedAt: new Date(),
      })
      .where(eq(sitePlans.id, id))
      .returning(listed);
    const plan = toPlan(row!);
    await recordAudit(tx, who, { action: 'site_plan.update', entity: 'site_plan', entityId: id, before: audited(toPlan(before)), after: audited(plan) });
    return plan;
  });
}

export async function makeDefaultPlan(db: Db, id: number, who: AuditActor): Promise<SitePlan> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select(listed).from(sitePlans).where(eq(sitePlans.id, id)).for('update');
    if (!target) throw notFound(PLAN_NOT_FOUND);
    await tx.update(sitePlans).set({ isDefault: false }).where(eq(sitePlans.isDefault, true));
    const [row] = await tx.update(sitePlans).set({ isDefault: true, updatedAt: new Date() }).where(eq(sitePlans.id, id)).returning(listed);
    const plan = toPlan(row!);
    await recordAudit(tx, who, { action: 'site_plan.default', entity: 'site_plan', entityId: id, before: { is_default: target.isDefault }, after: { is_default: true } });
    return plan;
  });
}

export async function deletePlan(db: Db, id: number, who: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(sitePlans).where(eq(sitePlans.id, id)).returning(listed);
    if (!row) throw notFound(PLAN_NOT_FOUND);
    await recordAudit(tx, who, { action: 'site_plan.delete', entity: 'site_plan', entityId: id, before: audited(toPlan(row)) });
  });
}
