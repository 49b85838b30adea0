// Reads a site plan's multipart upload (decision 065): at most one file of 20 MB and a few short fields. A file over
// the limit, a second file or an unknown field is a 400 naming it; nothing is stored before the whole body is read.
import type { FastifyRequest } from 'fastify';
import { SITE_PLAN_MAX_BYTES } from '@prison/shared';
import { badRequest } from '../../lib/http-errors';

export const UPLOAD_LIMITS = { fileSize: SITE_PLAN_MAX_BYTES, files: 1, fields: 4, fieldSize: 8 * 1024, parts: 6 };
const FIELDS = new Set(['name', 'points']);

export interface PlanUpload {
  file: Buffer | undefined;
  fields: Record<string, string>;
}

export async function readPlanUpload(request: FastifyRequest): Promise<PlanUpload> {
  let file: Buffer | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: UPLOAD_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw badRequest(`${part.fieldname}: is not a field of a site plan (the image goes in "file")`);
        file = await part.toBuffer();
      } else {
        if (!FIELDS.has(part.fieldname)) throw badRequest(`${part.fieldname}: is not a field of a site plan`);
        if (part.valueTruncated) throw badRequest(`${part.fieldname}: is too long`);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`file: is larger than ${SITE_PLAN_MAX_BYTES / 1024 / 1024} MB`);
    if (code === 'FST_FILES_LIMIT') throw badRequest('file: only one file may be sent');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw badRequest('request: too many fields');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_MULTIPART_INVALID_CONTENT_TYPE') throw badRequest('request: must be multipart/form-data');
    if ((error as { statusCode?: number }).statusCode === 400 || /multipart|boundary/i.test(String((error as Error).message)))
      throw badRequest(`request: ${(error as Error).message}`);
    throw error;
  }
  return { file, fields };
}
