// Prisoner photos (decision 101): what an upload really is, read from its bytes (a PNG or a JPEG, never by its name),
// decoded and resized by sharp to a small JPEG without metadata (no camera, place or time), stored in the database.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { PRISONER_PHOTO_MAX_BYTES, PRISONER_PHOTO_SIDE } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { prisonerPhotos, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/http-errors';

export const PHOTO_UPLOAD_LIMITS = { fileSize: PRISONER_PHOTO_MAX_BYTES, files: 1, fields: 0, parts: 1 };
/** A picture of more pixels than this is no passport photo, and decoding it would cost the server's memory. */
const MAX_INPUT_PIXELS = 40_000_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isPng = (bytes: Buffer) => bytes.subarray(0, 8).equals(PNG_SIGNATURE);
const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/** The one file of a multipart upload, in the field `photo`; too large, missing or another field is a 400 naming it. */
export async function readPhotoUpload(request: FastifyRequest): Promise<Buffer> {
  let photo: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: PHOTO_UPLOAD_LIMITS })) {
      if (part.type !== 'file' || part.fieldname !== 'photo') throw badRequest(`${part.fieldname}: is not a field of a photo upload (the image goes in "photo")`);
      photo = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`photo: is larger than ${PRISONER_PHOTO_MAX_BYTES / 1024 / 1024} MB`);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('photo: send one file only');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_MULTIPART_INVALID_CONTENT_TYPE') throw badRequest('request: must be multipart/form-data');
    if ((error as { statusCode?: number }).statusCode === 400 || /multipart|boundary/i.test(String((error as Error).message)))
      throw badRequest(`request: ${(error as Error).message}`);
    throw error;
  }
  if (!photo || photo.length === 0) throw badRequest('photo: is required (a PNG or JPEG image)');
  return photo;
}

/** The stored form of an upload: checked by content, turned upright, resized, re-encoded as JPEG without metadata. */
export async function preparePhoto(bytes: Buffer): Promise<Buffer> {
  if (!isPng(bytes) && !isJpeg(bytes)) throw badRequest('photo: is not a PNG or JPEG image');
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(PRISONER_PHOTO_SIDE, PRISONER_PHOTO_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch (error) {
    const message = String((error as Error).message);
    if (/pixel limit/i.test(message)) throw badRequest(`photo: has more than ${MAX_INPUT_PIXELS / 1e6} megapixels`);
    throw badRequest('photo: could not be read as an image (damaged or not a PNG or JPEG)');
  }
}

export interface StoredPhoto {
  digest: string;
  byteSize: number;
}

/** Stores (or replaces) a prisoner's photo and audits it; the route has checked his caseload. */
export async function savePhoto(db: DbOrTx, who: AuditActor, prisonerId: number, image: Buffer): Promise<StoredPhoto> {
  const digest = createHash('sha256').update(image).digest('hex');
  return db.transaction(async (tx) => {
    const [prisoner] = await tx.select({ id: prisoners.prisonerId }).from(prisoners).where(eq(prisoners.prisonerId, prisonerId)).for('update');
    if (!prisoner) throw notFound(`Prisoner ${prisonerId} not found`);
    const [before] = await tx.select({ digest: prisonerPhotos.digest }).from(prisonerPhotos).where(eq(prisonerPhotos.prisonerId, prisonerId));
    const row = { image, byteSize: image.length, digest, updatedBy: who.actor, updatedAt: new Date() };
    await tx.insert(prisonerPhotos).values({ prisonerId, ...row }).onConflictDoUpdate({ target: prisonerPhotos.prisonerId, set: row });
    await recordAudit(tx, who, {
      action: 'photo',
      entity: 'prisoner',
      entityId: prisonerId,
      before: before ? { photo_digest: before.digest } : null,
      after: { photo_digest: digest, byte_size: image.length },
    });
    return { digest, byteSize: image.length };
  });
}

/** Removes a prisoner's photo (audited); 404 when he has none. */
export async function deletePhoto(db: DbOrTx, who: AuditActor, prisonerId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [gone] = await tx.delete(prisonerPhotos).where(eq(prisonerPhotos.prisonerId, prisonerId)).returning({ digest: prisonerPhotos.digest });
    if (!gone) throw notFound(`Prisoner ${prisonerId} has no photo`);
    await recordAudit(tx, who, { action: 'photo_delete', entity: 'prisoner', entityId: prisonerId, before: { photo_digest: gone.digest } });
  });
}

export async function readPhoto(db: DbOrTx, prisonerId: number): Promise<{ image: Buffer; digest: string }> {
  const [photo] = await db
    .select({ image: prisonerPhotos.image, digest: prisonerPhotos.digest })
    .from(prisonerPhotos)
    .where(eq(prisonerPhotos.prisonerId, prisonerId));
  if (!photo) throw notFound(`Prisoner ${prisonerId} has no photo`);
  return photo;
}
