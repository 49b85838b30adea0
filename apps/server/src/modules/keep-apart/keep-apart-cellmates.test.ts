// Cell rules without holes (decision 102): a keep-apart pair is refused on two prisoners who share what its scope
// forbids, unless one of them moves in the same request (an audited cell move under every cell rule; one that lifts an
// alarm refuses the pair); the occupancy picture flags a pair already breached, on the cards of its cells.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { BlockOverview, KeepApartPair, Prisoner } from '@prison/shared';
import { describeOnPglite } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { auditLog, keepApartPairs } from '../../db/schema';

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-4)}${++counter}`.toUpperCase();

describeOnPglite('keep-apart pairs on prisoners who share a cell, a landing or a block', () => {
  const ctx = useTestApp('pglite');
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);

  async function newCell(block: string, suffix: string): Promise<string> {
    const cell_id = `${block}-${suffix}`;
    const res = await api('POST', '/cell_controls/cells', { cell_id, block, capacity: 4, security_level: 'Low' });
    expect(res.statusCode, res.body).toBe(200);
    return cell_id;
  }

  async function newPrisoner(first_name: string, cell_id: string | null): Promise<Prisoner> {
    const res = await api('POST', '/prisoner/add', {
      first_name,
      last_name: 'Cellmate',
      date_of_birth: '1984-07-21',
      status: 'Incarcerated',
      gender: 'Male',
      cell_id,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const name = (p: Prisoner) => `${p.first_name} ${p.last_name} (#${p.prisoner_id})`;
  const pairBody = (a: Prisoner, b: Prisoner, scope: 'cell' | 'landing' | 'block', move?: { prisoner: Prisoner; cell: string }) => ({
    prisoner_a: a.prisoner_id,
    prisoner_b: b.prisoner_id,
    reason: 'Violence',
    scope,
    ...(move ? { move_prisoner_id: move.prisoner.prisoner_id, move_cell_id: move.cell } : {}),
  });
  const pairsOf = (a: Prisoner) =>
    ctx().database.db.select().from(keepApartPairs).where(eq(keepApartPairs.prisonerA, a.prisoner_id));

  it('refuses a pair on cellmates naming the cell and the way out, and makes it when one moves in the same request', async () => {
    const block = unique('KC');
    const shared = await newCell(block, '103');
    const other = await newCell(block, '104');
    const a = await newPrisoner('Abel', shared);
    const b = await newPrisoner('Bram', shared);

    const refused = await api('POST', '/keep-apart', pairBody(a, b, 'cell'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `${name(a)} and ${name(b)} must be kept apart and share cell ${shared}: move one of them out of cell ${shared} in the same step to create the pair`,
    );
    expect(await pairsOf(a)).toHaveLength(0);

    // Moving into the partner's cell, or naming a third prisoner, does not make the pair.
    const intoShared = await api('POST', '/keep-apart', pairBody(a, b, 'cell', { prisoner: b, cell: shared }));
    expect(intoShared.statusCode).toBe(409);
    const third = await api('POST', '/keep-apart', { ...pairBody(a, b, 'cell'), move_prisoner_id: 987654, move_cell_id: other });
    expect(third.statusCode).toBe(400);
    expect(third.json().message).toMatch(/^move_prisoner_id: /);
    const half = await api('POST', '/keep-apart', { ...pairBody(a, b, 'cell'), move_cell_id: other });
    expect(half.statusCode).toBe(400);
    expect(half.json().message).toMatch(/^move_cell_id: /);
    const nowhere = await api('POST', '/keep-apart', pairBody(a, b, 'cell', { prisoner: b, cell: `${block}-999` }));
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().message).toMatch(/^move_cell_id: /);
    expect(await pairsOf(a)).toHaveLength(0);

    const made = await api('POST', '/keep-apart', pairBody(a, b, 'cell', { prisoner: b, cell: other }));
    expect(made.statusCode, made.body).toBe(200);
    const pair = made.json().pair as KeepApartPair;
    expect(pair).toMatchObject({ prisoner_a: { cell_id: shared }, prisoner_b: { cell_id: other }, scope: 'cell' });
    const moves = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'assign_cell'), eq(auditLog.entityId, String(b.prisoner_id))))
      .orderBy(auditLog.id);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ before: { cell_id: shared }, after: { cell_id: other } });
  });

  it('a pair by block refuses two prisoners of one block; the move must leave the block', async () => {
    const block = unique('KB');
    const elsewhere = unique('KE');
    const c1 = await newCell(block, '1');
    const c2 = await newCell(block, '2');
    const out = await newCell(elsewhere, '1');
    const a = await newPrisoner('Cato', c1);
    const b = await newPrisoner('Dirk', c2);

    const refused = await api('POST', '/keep-apart', pairBody(a, b, 'block'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `${name(a)} and ${name(b)} must be kept apart by block and are both in block ${block} (cells ${c1} and ${c2}): move one of them out of block ${block} in the same step to create the pair`,
    );
    // Moving within the block is refused by the move's own cell rule, which already sees the new pair.
    const within = await api('POST', '/keep-apart', pairBody(a, b, 'block', { prisoner: a, cell: await newCell(block, '3') }));
    expect(within.statusCode).toBe(409);
    expect(within.json()).toMatchObject({ rule: 'keep_apart' });
    expect(await pairsOf(a)).toHaveLength(0);
    expect((await api('POST', '/keep-apart', pairBody(a, b, 'block', { prisoner: a, cell: out }))).statusCode).toBe(200);
    // The same two in different cells of one block are no breach for a pair by cell.
    const e = await newPrisoner('Emil', c2);
    expect((await api('POST', '/keep-apart', pairBody(b, e, 'cell'))).statusCode).toBe(409);
    const f = await newPrisoner('Finn', c1);
    expect((await api('POST', '/keep-apart', pairBody(f, b, 'cell'))).statusCode).toBe(200);
  });

  it('a pair by landing refuses two prisoners of one landing; the move must leave the landing; a cell move onto it is refused', async () => {
    const block = unique('KL');
    const c201 = await newCell(block, '201');
    const c202 = await newCell(block, '202');
    const c101 = await newCell(block, '101');
    const a = await newPrisoner('Kai', c201);
    const b = await newPrisoner('Lev', c202);

    const refused = await api('POST', '/keep-apart', pairBody(a, b, 'landing'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `${name(a)} and ${name(b)} must be kept apart by landing and are both on landing 2 of block ${block} (cells ${c201} and ${c202}): move one of them off landing 2 of block ${block} in the same step to create the pair`,
    );
    // Moving along the landing is refused by the move's own cell rule, which already sees the new pair.
    const along = await api('POST', '/keep-apart', pairBody(a, b, 'landing', { prisoner: b, cell: await newCell(block, '203') }));
    expect(along.statusCode).toBe(409);
    expect(along.json()).toMatchObject({ rule: 'keep_apart' });
    expect(await pairsOf(a)).toHaveLength(0);

    // Another landing of the same block is enough.
    const made = await api('POST', '/keep-apart', pairBody(a, b, 'landing', { prisoner: b, cell: c101 }));
    expect(made.statusCode, made.body).toBe(200);
    const pair = made.json().pair as KeepApartPair;
    expect(pair).toMatchObject({ prisoner_a: { cell_id: c201 }, prisoner_b: { cell_id: c101 }, scope: 'landing' });

    // A cell move onto the partner's landing is refused like one into his block for a pair by block...
    const c204 = await newCell(block, '204');
    const onto = await api('POST', '/cell_controls/assign', { prisoner_id: b.prisoner_id, cell_id: c204 });
    expect(onto.statusCode).toBe(409);
    expect(onto.json()).toMatchObject({
      rule: 'keep_apart',
      message: expect.stringContaining(
        `${name(b)} must be kept off landing 2 of block ${block}: ${name(a)} (cell ${c201}) is to be kept apart by landing`,
      ),
    });
    // ...and the check screen marks the landing's cells, not the other landing's.
    const checks = (await api('GET', `/cell_controls/check?prisoner_id=${b.prisoner_id}`)).json().data as {
      cell_id: string;
      refusals: { rule: string }[];
    }[];
    expect(checks.find((c) => c.cell_id === c204)!.refusals).toMatchObject([{ rule: 'keep_apart' }]);
    expect(checks.find((c) => c.cell_id === c101)!.refusals).toEqual([]);

    // ...overridable with a reason, and then flagged on the cards of both cells.
    const overridden = await api('POST', '/cell_controls/assign', {
      prisoner_id: b.prisoner_id,
      cell_id: c204,
      override_reason: 'Landing 1 closed for repairs tonight',
    });
    expect(overridden.statusCode, overridden.body).toBe(200);
    const overview = (await api('GET', '/cell_controls/overview')).json().data as BlockOverview[];
    const cells = overview.find((o) => o.block === block)!.cells;
    const flag = [
      {
        pair_id: pair.id,
        message: `${name(a)} and ${name(b)} must be kept apart by landing and are both on landing 2 of block ${block} (cells ${c201} and ${c204})`,
      },
    ];
    expect(cells.find((c) => c.cell_id === c201)!.keep_apart_conflicts).toEqual(flag);
    expect(cells.find((c) => c.cell_id === c204)!.keep_apart_conflicts).toEqual(flag);
    expect(cells.find((c) => c.cell_id === c101)!.keep_apart_conflicts).toEqual([]);
  });

  it('refuses the pair when the move it offers lifts an alarm: the move waits for a second person, so the pair does not', async () => {
    const block = unique('KA');
    const elsewhere = unique('KF');
    const shared = await newCell(block, '1');
    const out = await newCell(elsewhere, '1');
    const a = await newPrisoner('Gus', shared);
    const b = await newPrisoner('Hal', shared);
    const zone = {
      geofence_id: unique('zone').toLowerCase(),
      name: `Yard of ${block}`,
      type: 'Positive',
      shape: 'Circle',
      alert_type: 'Critical',
      radius: 300,
      center_lat: 51.5,
      center_lng: -0.12,
      applies_to: { blocks: [block] },
    };
    expect((await api('POST', '/geofence/add', zone)).statusCode).toBe(200);
    const refused = await api('POST', '/keep-apart', pairBody(a, b, 'cell', { prisoner: b, cell: out }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Moving ${name(b)} to cell ${out} lifts an alarm and waits for a second person's approval: ask for the move in Cells first, then create the pair once he has moved`,
    );
    expect(await pairsOf(a)).toHaveLength(0);
    expect((await api('GET', `/prisoner/prisonerid/${b.prisoner_id}`)).json().data.cell_id).toBe(shared);
  });

  it('flags a pair already breached on the cards of its cells (the occupancy picture)', async () => {
    const block = unique('KO');
    const c1 = await newCell(block, '1');
    const c2 = await newCell(block, '2');
    const a = await newPrisoner('Ivo', c1);
    const b = await newPrisoner('Jon', c2);
    const pair = (await api('POST', '/keep-apart', pairBody(a, b, 'cell'))).json().pair as KeepApartPair;
    // A pair of before this rule, or a move made with an override: the two end up together.
    const moved = await api('POST', '/cell_controls/assign', { prisoner_id: b.prisoner_id, cell_id: c1, override_reason: 'Night move, no other cell free' });
    expect(moved.statusCode, moved.body).toBe(200);
    const overview = (await api('GET', '/cell_controls/overview')).json().data as BlockOverview[];
    const cells = overview.find((o) => o.block === block)!.cells;
    expect(cells.find((c) => c.cell_id === c1)!.keep_apart_conflicts).toEqual([
      { pair_id: pair.id, message: `${name(a)} and ${name(b)} must be kept apart and share cell ${c1}` },
    ]);
    expect(cells.find((c) => c.cell_id === c2)!.keep_apart_conflicts).toEqual([]);
  });
});
