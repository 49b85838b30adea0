// The cell rules (decision 031) through every write that gives a prisoner a cell, each rule with its override, on
// both engines; the check endpoint; keep-apart pairs racing into one cell or block.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Cell, CellCheck, KeepApartPair, Prisoner } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp, writeApproved } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

const REASON = 'Medical wing is closed tonight';

describeEachEngine('cell rules', (engine) => {
  const ctx = useTestApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);

  async function newCell(cell_id: string, block: string, capacity = 4): Promise<Cell> {
    const res = await api('POST', '/cell_controls/cells', { cell_id, block, capacity, security_level: 'Low' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().cell;
  }

  async function newPrisoner(fields: Record<string, unknown>): Promise<Prisoner> {
    const res = await api('POST', '/prisoner/add', {
      first_name: 'Rule',
      last_name: 'Tester',
      date_of_birth: '1984-07-21',
      status: 'Incarcerated',
      gender: 'Male',
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  async function keepApart(a: Prisoner, b: Prisoner, scope: 'cell' | 'block'): Promise<KeepApartPair> {
    const res = await api('POST', '/keep-apart', {
      prisoner_a: a.prisoner_id,
      prisoner_b: b.prisoner_id,
      reason: 'Violence',
      scope,
      comment: 'Fight in the yard',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().pair;
  }

  const assign = (p: Prisoner, cell_id: string, override_reason?: string) =>
    api('POST', '/cell_controls/assign', { prisoner_id: p.prisoner_id, cell_id, override_reason });

  async function overrides(prisonerId: number) {
    return ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'override_cell_rule'), eq(auditLog.entityId, String(prisonerId)))).orderBy(auditLog.id);
  }

  it('keeps one sex per cell on create, full edit and assign; an override places the prisoner and is audited', async () => {
    await newCell('SX-1', 'SX');
    const man = await newPrisoner({ first_name: 'Adam', last_name: 'Stone', cell_id: 'SX-1' });
    const woman = await newPrisoner({ first_name: 'Eve', last_name: 'Brook', gender: 'Female', cell_id: null });

    const moved = await assign(woman, 'SX-1');
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toEqual({
      rule: 'sex',
      message: `Cell SX-1 holds Adam Stone (#${man.prisoner_id}) (male); Eve Brook (#${woman.prisoner_id}) is female: a cell holds prisoners of one sex`,
    });
    const edited = await api('PUT', `/prisoner/update/${woman.prisoner_id}`, { cell_id: 'SX-1' });
    expect(edited.statusCode).toBe(409);
    expect(edited.json().rule).toBe('sex');
    const created = await api('POST', '/prisoner/add', {
      first_name: 'Iris',
      last_name: 'Vale',
      date_of_birth: '1990-01-01',
      status: 'On Trial',
      gender: 'Female',
      cell_id: 'SX-1',
    });
    expect(created.statusCode).toBe(409);
    expect(created.json()).toMatchObject({ rule: 'sex', message: expect.stringContaining('Iris Vale is female') });
    // Changing the gender of someone already in the cell is checked too.
    const regendered = await api('PUT', `/prisoner/update/${man.prisoner_id}`, { gender: 'Other' });
    expect(regendered.json()).toMatchObject({ rule: 'sex' });
    expect(regendered.statusCode).toBe(409);
    expect((await overrides(woman.prisoner_id)).length).toBe(0);

    // Too short a reason is bad input naming the field, and changes nothing.
    const short = await assign(woman, 'SX-1', 'because');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/^override_reason: must be at least 10 characters/);
    const long = await assign(woman, 'SX-1', 'x'.repeat(501));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^override_reason: /);

    const overridden = await assign(woman, 'SX-1', REASON);
    expect(overridden.statusCode, overridden.body).toBe(200);
    expect(overridden.json().prisoner.cell_id).toBe('SX-1');
    expect(await overrides(woman.prisoner_id)).toMatchObject([
      { actor: 'warden', entity: 'prisoner', after: { cell_id: 'SX-1', rules: ['sex'], override_reason: REASON } },
    ]);
  });

  it('places gender Other only with an override', async () => {
    await newCell('SX-2', 'SX');
    const res = await api('POST', '/prisoner/add', {
      first_name: 'Sam',
      last_name: 'Ash',
      date_of_birth: '1990-01-01',
      status: 'Incarcerated',
      gender: 'Other',
      cell_id: 'SX-2',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ rule: 'sex', message: 'Sam Ash is recorded as Other: a place in cell SX-2 needs an override' });
    const placed = await newPrisoner({ first_name: 'Sam', gender: 'Other', cell_id: 'SX-2', override_reason: REASON });
    expect(placed.cell_id).toBe('SX-2');
    expect(await overrides(placed.prisoner_id)).toMatchObject([{ after: { rules: ['sex'], override_reason: REASON } }]);
  });

  it('gives a cell only to On Trial and Incarcerated prisoners, unless overridden', async () => {
    await newCell('ST-1', 'ST');
    const released = await newPrisoner({ first_name: 'Gone', last_name: 'Free', status: 'Released', cell_id: null });
    const res = await assign(released, 'ST-1');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      rule: 'status',
      message: `Gone Free (#${released.prisoner_id}) is Released: only On Trial and Incarcerated prisoners hold a cell`,
    });
    const transferred = await api('POST', '/prisoner/add', {
      first_name: 'Far',
      last_name: 'Away',
      date_of_birth: '1980-01-01',
      status: 'Transferred',
      cell_id: 'ST-1',
    });
    expect(transferred.json()).toMatchObject({ rule: 'status' });
    const ok = await assign(released, 'ST-1', REASON);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().cell.current_occupants).toBe(0);
    expect(await overrides(released.prisoner_id)).toMatchObject([{ after: { rules: ['status'] } }]);
    // Releasing someone keeps their last cell on the record without any check.
    const inmate = await newPrisoner({ cell_id: 'ST-1' });
    expect((await api('PUT', `/prisoner/update/${inmate.prisoner_id}`, { status: 'Released' })).statusCode).toBe(200);
  });

  it('never puts a keep-apart pair in one cell; a block-scoped pair not in one block; overrides are audited', async () => {
    await newCell('KA-1', 'KA');
    await newCell('KA-2', 'KA');
    await newCell('KB-1', 'KB');
    const a = await newPrisoner({ first_name: 'Ari', last_name: 'North', cell_id: 'KA-1' });
    const b = await newPrisoner({ first_name: 'Ben', last_name: 'South', cell_id: 'KB-1' });
    const pair = await keepApart(a, b, 'cell');

    const sameCell = await assign(b, 'KA-1');
    expect(sameCell.statusCode).toBe(409);
    expect(sameCell.json()).toEqual({
      rule: 'keep_apart',
      message: `Ben South (#${b.prisoner_id}) must be kept apart from Ari North (#${a.prisoner_id}), who is in cell KA-1`,
    });
    // Scope cell: another cell of the same block is allowed.
    expect((await assign(b, 'KA-2')).statusCode).toBe(200);
    expect((await assign(b, 'KB-1')).statusCode).toBe(200);

    // Scope block: the whole block is refused.
    expect((await writeApproved(ctx(), 'POST', `/keep-apart/${pair.id}/end`, { reason: 'Rescoped to the block' })).statusCode).toBe(200);
    await keepApart(a, b, 'block');
    const sameBlock = await assign(b, 'KA-2');
    expect(sameBlock.statusCode).toBe(409);
    expect(sameBlock.json()).toEqual({
      rule: 'keep_apart',
      message: `Ben South (#${b.prisoner_id}) must be kept out of block KA: Ari North (#${a.prisoner_id}) (cell KA-1) is to be kept apart by block`,
    });
    const full = await api('PUT', `/prisoner/update/${b.prisoner_id}`, { ...b, cell_id: 'KA-2', override_reason: undefined });
    expect(full.json()).toMatchObject({ rule: 'keep_apart' });
    const overridden = await api('PUT', `/prisoner/update/${b.prisoner_id}`, { cell_id: 'KA-2', override_reason: REASON });
    expect(overridden.statusCode, overridden.body).toBe(200);
    expect(await overrides(b.prisoner_id)).toMatchObject([{ after: { cell_id: 'KA-2', rules: ['keep_apart'] } }]);
    // A released partner no longer counts.
    await api('PUT', `/prisoner/update/${a.prisoner_id}`, { status: 'Released' });
    expect((await assign(b, 'KA-1')).statusCode).toBe(200);
  });

  it('never overrides capacity', async () => {
    await newCell('CP-1', 'CP', 1);
    await newPrisoner({ cell_id: 'CP-1' });
    const other = await newPrisoner({ cell_id: null });
    const res = await assign(other, 'CP-1', REASON);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ rule: 'capacity', message: 'Cell CP-1 is full' });
    // Full and of the other sex: capacity answers, since an override could not help.
    const woman = await newPrisoner({ gender: 'Female', cell_id: null });
    expect((await assign(woman, 'CP-1')).json()).toMatchObject({ rule: 'capacity' });
  });

  it('answers for every cell at once what placing a prisoner there would meet', async () => {
    await newCell('CK-1', 'CK', 1);
    await newCell('CK-2', 'CK', 2);
    await newCell('CK-3', 'CK', 2);
    await newCell('CL-1', 'CL', 2);
    await newPrisoner({ first_name: 'Full', last_name: 'Up', cell_id: 'CK-1' });
    const woman = await newPrisoner({ first_name: 'Wanda', last_name: 'Lee', gender: 'Female', cell_id: 'CK-2' });
    const enemy = await newPrisoner({ first_name: 'Eli', last_name: 'Cross', cell_id: 'CK-3' });
    const mover = await newPrisoner({ first_name: 'Mo', last_name: 'Vere', cell_id: 'CL-1' });
    await keepApart(mover, enemy, 'block');

    const res = await api('GET', `/cell_controls/check?prisoner_id=${mover.prisoner_id}`);
    expect(res.statusCode, res.body).toBe(200);
    const byCell = new Map((res.json().data as CellCheck[]).map((c) => [c.cell_id, c]));
    expect(byCell.get('CK-1')!.refusals.map((r) => r.rule)).toEqual(['capacity', 'keep_apart']);
    expect(byCell.get('CK-2')!.refusals.map((r) => r.rule)).toEqual(['sex', 'keep_apart']);
    expect(byCell.get('CK-2')!.refusals[0]!.message).toContain(`Wanda Lee (#${woman.prisoner_id})`);
    expect(byCell.get('CK-3')!.refusals).toEqual([
      {
        rule: 'keep_apart',
        message: `Mo Vere (#${mover.prisoner_id}) must be kept apart from Eli Cross (#${enemy.prisoner_id}), who is in cell CK-3`,
      },
    ]);
    expect(byCell.get('CL-1')).toMatchObject({ current: true, refusals: [] });
    // What the form holds stands in for the record; without a prisoner, a new one of that gender and status.
    const asReleased = (await api('GET', `/cell_controls/check?prisoner_id=${mover.prisoner_id}&status=Released`)).json();
    expect((asReleased.data as CellCheck[]).find((c) => c.cell_id === 'CK-3')!.refusals[0]!.rule).toBe('status');
    const fresh = (await api('GET', '/cell_controls/check?gender=Female&status=On%20Trial')).json().data as CellCheck[];
    expect(fresh.find((c) => c.cell_id === 'CK-2')!.refusals).toEqual([]);
    expect(fresh.find((c) => c.cell_id === 'CK-3')!.refusals.map((r) => r.rule)).toEqual(['sex']);
    // Every answer matches what the write itself answers.
    for (const check of byCell.values()) {
      if (check.current || !check.cell_id.startsWith('CK')) continue;
      const write = await assign(mover, check.cell_id);
      if (check.refusals.length === 0) expect(write.statusCode).toBe(200);
      else expect(write.json(), check.cell_id).toEqual(check.refusals[0]);
      if (write.statusCode === 200) await assign(mover, 'CL-1');
    }
    expect((await api('GET', '/cell_controls/check?prisoner_id=987654')).statusCode).toBe(404);
    expect((await api('GET', '/cell_controls/check?gender=Alien')).json().message).toMatch(/^gender: /);
  });

  // Both write transactions lock the cell row (and the pair row), so the second sees the first one's move.
  it('lets at most one prisoner of a keep-apart pair racing into one cell, or one block, succeed', async () => {
    for (let round = 0; round < 3; round++) {
      await newCell(`RC-${round}`, `RB${round}`, 4);
      await newCell(`RD-${round}`, `RB${round}`, 4);
      const a = await newPrisoner({ cell_id: null });
      const b = await newPrisoner({ cell_id: null });
      await keepApart(a, b, 'cell');
      const sameCell = await Promise.all([assign(a, `RC-${round}`), assign(b, `RC-${round}`)]);
      expect(sameCell.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(sameCell.find((r) => r.statusCode === 409)!.json().rule).toBe('keep_apart');

      const c = await newPrisoner({ cell_id: null });
      const d = await newPrisoner({ cell_id: null });
      await keepApart(c, d, 'block');
      const sameBlock = await Promise.all([assign(c, `RC-${round}`), assign(d, `RD-${round}`)]);
      expect(sameBlock.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    }
  });
});
