// Who is who (decision 101): prison numbers given or assigned (the spec's client sends none), unique across archived
// records, searchable; photos uploaded as real PNG and JPEG, refused by content and size, served only within the
// caseload; flags set and cleared with who and when, audited.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Prisoner, PrisonerFlag, PrisonerListResponse } from '@prison/shared';
import { API_PREFIX, ASSIGNED_PRISON_NUMBER, PRISONER_PHOTO_SIDE } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp, type TestContext } from '../../../test/test-app';
import { createRoleAccounts, sendAs, sessionCookie } from '../../../test/route-access-kit';
import { auditLog, prisonerPhotos } from '../../db/schema';

let serial = 0;
const unique = () => `${Date.now().toString(36)}${++serial}`;

async function addPrisoner(ctx: TestContext, extra: Record<string, unknown> = {}) {
  return ctx.api('POST', '/prisoner/add', { first_name: 'John', last_name: 'Smith', date_of_birth: '1980-05-01', status: 'Incarcerated', ...extra });
}

const BOUNDARY = 'photo-boundary-5Yt2kQ';
function photoBody(bytes: Buffer, { field = 'photo', name = 'face.png', type = 'image/png' } = {}) {
  const payload = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}
const putPhoto = (ctx: TestContext, id: number, bytes: Buffer, options?: Parameters<typeof photoBody>[1]) => {
  const body = photoBody(bytes, options);
  return ctx.api('PUT', `/prisoners/${id}/photo`, body.payload, body.headers);
};

/** A real picture, with EXIF metadata that the stored photo must not keep. */
const picture = (width: number, height: number, format: 'png' | 'jpeg') => {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 60 } } }).withExif({ IFD0: { Artist: 'Secret Camera Owner' } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

describeEachEngine('prisoner identity', (engine) => {
  const ctx = useTestApp(engine);

  it('assigns the next prison number when none is given (the spec client), keeps a given one, and refuses a duplicate with 409 naming prison_number, archived records included', async () => {
    const assigned = await addPrisoner(ctx());
    expect(assigned.statusCode).toBe(200);
    const first = assigned.json<Prisoner>();
    expect(first.prison_number).toMatch(ASSIGNED_PRISON_NUMBER);
    const second = (await addPrisoner(ctx())).json<Prisoner>();
    expect(second.prison_number).toMatch(ASSIGNED_PRISON_NUMBER);
    expect(second.prison_number).not.toBe(first.prison_number);

    const given = `x${unique()}`;
    const withNumber = await addPrisoner(ctx(), { prison_number: given });
    expect(withNumber.statusCode).toBe(200);
    expect(withNumber.json<Prisoner>().prison_number).toBe(given.toUpperCase());

    const duplicate = await addPrisoner(ctx(), { prison_number: first.prison_number });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json<{ message: string }>().message).toMatch(/^prison_number: /);
    // An empty number is "assign one"; a malformed one is 400 naming the field.
    expect((await addPrisoner(ctx(), { prison_number: '' })).json<Prisoner>().prison_number).toMatch(ASSIGNED_PRISON_NUMBER);
    const malformed = await addPrisoner(ctx(), { prison_number: 'A 12;' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ message: string }>().message).toMatch(/^prison_number: /);

    // Archived, he keeps his number: nobody else may have it.
    expect((await ctx().api('DELETE', `/prisoner/delete/${second.prisoner_id}`)).statusCode).toBe(200);
    expect((await addPrisoner(ctx(), { prison_number: second.prison_number })).statusCode).toBe(409);
    const taken = await ctx().api('PUT', `/prisoner/update/${first.prisoner_id}`, { prison_number: second.prison_number });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<{ message: string }>().message).toMatch(/^prison_number: /);

    // Records staff correct a number; the change is audited.
    const corrected = `c${unique()}`.toUpperCase();
    const updated = await ctx().api('PUT', `/prisoner/update/${first.prisoner_id}`, { prison_number: corrected });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<Prisoner>().prison_number).toBe(corrected);
    const [audit] = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'prisoner'), eq(auditLog.entityId, String(first.prisoner_id)), eq(auditLog.action, 'update'))).orderBy(auditLog.id);
    expect(audit?.after).toMatchObject({ prison_number: corrected });
  });

  it('tells two prisoners of one name apart by number in the list, and finds one by his number', async () => {
    const last = `Twin${unique()}`;
    const a = (await addPrisoner(ctx(), { last_name: last })).json<Prisoner>();
    const b = (await addPrisoner(ctx(), { last_name: last })).json<Prisoner>();
    const list = (await ctx().api('GET', `/prisoner/all?q=${last}`)).json<PrisonerListResponse>();
    expect(list.prisoners.map((p) => p.prison_number).sort()).toEqual([a.prison_number, b.prison_number].sort());
    const found = (await ctx().api('GET', `/prisoner/all?q=${b.prison_number.toLowerCase()}`)).json<PrisonerListResponse>();
    expect(found.prisoners.map((p) => p.prisoner_id)).toEqual([b.prisoner_id]);
  });

  it('stores a real PNG and JPEG resized without metadata, answers it to GET, and refuses a non-image or a file too large with 400 naming photo', async () => {
    const him = (await addPrisoner(ctx())).json<Prisoner>();
    expect(him.photo_digest).toBeNull();
    const png = await putPhoto(ctx(), him.prisoner_id, await picture(1200, 900, 'png'));
    expect(png.statusCode, png.body).toBe(200);
    const image = await ctx().api('GET', `/prisoners/${him.prisoner_id}/photo`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(String(image.headers['cache-control'])).toContain('private');
    const stored = await sharp(image.rawPayload).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: PRISONER_PHOTO_SIDE });
    expect(stored.exif).toBeUndefined();
    expect(image.rawPayload.includes(Buffer.from('Secret Camera Owner'))).toBe(false);
    const details = (await ctx().api('GET', `/prisoner/prisonerid/${him.prisoner_id}`)).json<{ data: Prisoner }>().data;
    expect(details.photo_digest).toBe(png.json<{ photo_digest: string }>().photo_digest);
    expect((await ctx().api('GET', `/prisoners/${him.prisoner_id}/photo`, undefined, { 'if-none-match': `"${details.photo_digest}"` })).statusCode).toBe(304);

    const jpeg = await putPhoto(ctx(), him.prisoner_id, await picture(300, 400, 'jpeg'), { name: 'face.jpg', type: 'image/jpeg' });
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    expect(jpeg.json<{ photo_digest: string }>().photo_digest).not.toBe(details.photo_digest);
    expect(await sharp((await ctx().api('GET', `/prisoners/${him.prisoner_id}/photo`)).rawPayload).metadata()).toMatchObject({ width: 300, height: 400 });

    // A PDF named .png, a damaged PNG, a file over 5 MB, the wrong field: 400 naming it, the stored photo unchanged.
    const pdf = await putPhoto(ctx(), him.prisoner_id, Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'));
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json<{ message: string }>().message).toBe('photo: is not a PNG or JPEG image');
    const damaged = await putPhoto(ctx(), him.prisoner_id, (await picture(50, 50, 'png')).subarray(0, 40));
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json<{ message: string }>().message).toMatch(/^photo: /);
    const large = await putPhoto(ctx(), him.prisoner_id, Buffer.concat([await picture(10, 10, 'png'), Buffer.alloc(5 * 1024 * 1024)]));
    expect(large.statusCode).toBe(400);
    expect(large.json<{ message: string }>().message).toBe('photo: is larger than 5 MB');
    const wrongField = await putPhoto(ctx(), him.prisoner_id, await picture(10, 10, 'png'), { field: 'file' });
    expect(wrongField.statusCode).toBe(400);
    const [row] = await ctx().database.db.select({ digest: prisonerPhotos.digest }).from(prisonerPhotos).where(eq(prisonerPhotos.prisonerId, him.prisoner_id));
    expect(row?.digest).toBe(jpeg.json<{ photo_digest: string }>().photo_digest);

    const audits = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entityId, String(him.prisoner_id)), eq(auditLog.action, 'photo'))).orderBy(auditLog.id);
    expect(audits).toHaveLength(2);

    expect((await ctx().api('DELETE', `/prisoners/${him.prisoner_id}/photo`)).statusCode).toBe(204);
    expect((await ctx().api('GET', `/prisoners/${him.prisoner_id}/photo`)).statusCode).toBe(404);
  });

  it("answers a block-B prisoner's photo and flags to an officer of block A as an unknown prisoner (404), and his own block's", async () => {
    const tag = unique();
    await ctx().api('POST', '/cell_controls/cells', { cell_id: `IDA-${tag}`, block: `IdA${tag}`, capacity: 4, security_level: 'Low' });
    await ctx().api('POST', '/cell_controls/cells', { cell_id: `IDB-${tag}`, block: `IdB${tag}`, capacity: 4, security_level: 'Low' });
    const inA = (await addPrisoner(ctx(), { cell_id: `IDA-${tag}` })).json<Prisoner>();
    const inB = (await addPrisoner(ctx(), { cell_id: `IDB-${tag}` })).json<Prisoner>();
    for (const p of [inA, inB]) expect((await putPhoto(ctx(), p.prisoner_id, await picture(40, 40, 'png'))).statusCode).toBe(200);
    const accounts = await createRoleAccounts(ctx().database, { prefix: `id-${tag}`, blocks: { officer: [`IdA${tag}`] } });
    const officerA = await sessionCookie(ctx().database, accounts.officer);
    const asOfficer = (method: string, url: string, body?: unknown) => sendAs(ctx().app, officerA, method, `${API_PREFIX}${url}`, body);

    const outside = await asOfficer('GET', `/prisoners/${inB.prisoner_id}/photo`);
    expect(outside.statusCode).toBe(404);
    expect(outside.json<{ message: string }>().message).toBe(`Prisoner ${inB.prisoner_id} not found`);
    expect((await asOfficer('GET', `/prisoners/${inB.prisoner_id}/flags`)).statusCode).toBe(404);
    expect((await asOfficer('POST', `/prisoners/${inB.prisoner_id}/flags`, { kind: 'escape' })).statusCode).toBe(404);
    expect((await asOfficer('GET', `/prisoners/${inA.prisoner_id}/photo`)).statusCode).toBe(200);
    // An officer may flag his own block's prisoner, not change his photo (records staff do).
    expect((await asOfficer('POST', `/prisoners/${inA.prisoner_id}/flags`, { kind: 'self_harm', note: 'Low mood' })).statusCode).toBe(201);
    const body = photoBody(await picture(40, 40, 'png'));
    const upload = await ctx().app.inject({ method: 'PUT', url: `${API_PREFIX}/prisoners/${inA.prisoner_id}/photo`, payload: body.payload, headers: { ...body.headers, cookie: officerA } });
    expect(upload.statusCode).toBe(403);
  });

  it('sets a flag with who, from and until and a note, shows it as a badge on the prisoner, clears it with a reason; both audited', async () => {
    const him = (await addPrisoner(ctx())).json<Prisoner>();
    expect(him.flags).toEqual([]);
    const set = await ctx().api('POST', `/prisoners/${him.prisoner_id}/flags`, { kind: 'medical', note: 'Epilepsy: may have seizures', ends_at: '2099-01-01T00:00:00Z' });
    expect(set.statusCode, set.body).toBe(201);
    const flag = set.json<PrisonerFlag>();
    expect(flag).toMatchObject({ kind: 'medical', note: 'Epilepsy: may have seizures', set_by: expect.any(String), ends_at: '2099-01-01T00:00:00.000Z', active: true, cleared_at: null });
    await ctx().api('POST', `/prisoners/${him.prisoner_id}/flags`, { kind: 'escape', starts_at: '2099-01-01T00:00:00Z' });
    // In force now: the medical alert only (the escape risk starts later).
    const details = (await ctx().api('GET', `/prisoner/prisonerid/${him.prisoner_id}`)).json<{ data: Prisoner }>().data;
    expect(details.flags).toEqual(['medical']);
    const listed = (await ctx().api('GET', `/prisoner/all?q=${him.prison_number}`)).json<PrisonerListResponse>();
    expect(listed.prisoners[0]?.flags).toEqual(['medical']);

    // Bad input: 400 naming the field, nothing stored.
    for (const [body, field] of [
      [{ kind: 'grumpy' }, 'kind'],
      [{ kind: 'medical' }, 'note'],
      [{ kind: 'violence', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' }, 'ends_at'],
      [{ kind: 'violence', note: 'x'.repeat(501) }, 'note'],
    ] as const) {
      const refused = await ctx().api('POST', `/prisoners/${him.prisoner_id}/flags`, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await ctx().api('GET', `/prisoners/${him.prisoner_id}/flags`)).json<{ flags: PrisonerFlag[] }>().flags).toHaveLength(2);

    expect((await ctx().api('POST', `/prisoners/${him.prisoner_id}/flags/${flag.id}/clear`, {})).statusCode).toBe(400);
    const cleared = await ctx().api('POST', `/prisoners/${him.prisoner_id}/flags/${flag.id}/clear`, { reason: 'Entered in error' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json<PrisonerFlag>()).toMatchObject({ active: false, cleared_by: expect.any(String), clear_reason: 'Entered in error' });
    expect((await ctx().api('POST', `/prisoners/${him.prisoner_id}/flags/${flag.id}/clear`, { reason: 'Again' })).statusCode).toBe(409);
    expect((await ctx().api('GET', `/prisoner/prisonerid/${him.prisoner_id}`)).json<{ data: Prisoner }>().data.flags).toEqual([]);

    const audits = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entityId, String(him.prisoner_id))).orderBy(auditLog.id);
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['flag_set', 'flag_clear']));
    expect(audits.find((a) => a.action === 'flag_clear')?.before).toMatchObject({ id: flag.id, cleared_at: null });
  });
});
