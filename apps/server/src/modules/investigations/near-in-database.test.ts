// Who was near, matched in the database: the same people, times, counts and distances as the matching rule in
// JavaScript (near-matching.ts) on a crowd of random walks (ties in time, fixes exactly at the match's edge, two
// subject fixes in one millisecond, an unworn tracker, a window longer than one of PGlite's slices); and a question
// that cannot be answered in its time answers 400 naming the window; the heavy routes declare themselves so.
import { beforeAll, expect, it } from 'vitest';
import { API_PREFIX, METERS_PER_DEGREE, NEAR_MATCH_SECONDS, type NearQuery, type NearResponse } from '@prison/shared';
import { positions } from '../../db/schema';
import { addPrisoner, addStaff } from '../../tracking/tracking-test-kit';
import { useTestApp } from '../../../test/test-app';
import { describeEachEngine } from '../../../test/test-db';
import { fixesInProbes, personTrack } from './investigations-repository';
import { whoWasNear } from './investigations-service';
import { peopleNear } from './near-matching';
import { probesFor } from './near-probes';

const LAT = 51.5007;
const LNG = -0.1246;
const BASE = Date.parse('2026-06-01T08:00:00.000Z');
const WINDOW_MS = 2.5 * 3_600_000;
const MATCH_MS = NEAR_MATCH_SECONDS * 1000;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describeEachEngine('near: matched in the database, answers as the rule in JavaScript', (engine) => {
  const ctx = useTestApp(engine, { HEAVY_QUERY_TIMEOUT_MS: 1 });
  let subject: number;
  let staffSubject: number;

  beforeAll(async () => {
    const next = random(42);
    const people = [];
    for (let i = 0; i < 6; i++) people.push({ prisonerId: (await addPrisoner(ctx(), 'Walk', `Prisoner${i}`)).id, staffId: null as number | null });
    for (let i = 0; i < 2; i++) people.push({ prisonerId: null as number | null, staffId: (await addStaff(ctx(), 'Walk', `Officer${i}`)).id });
    people.push({ prisonerId: null, staffId: null }); // an unworn tracker names no one
    subject = people[0]!.prisonerId!;
    staffSubject = people[6]!.staffId!;
    const rows: (typeof positions.$inferInsert)[] = [];
    const subjectTimes: number[] = [];
    people.forEach((person, p) => {
      let t = BASE - 60_000;
      let north = next() * 60 - 30;
      let east = next() * 60 - 30;
      while (t < BASE + WINDOW_MS + 60_000) {
        // Fixes every 1-40 s in whole seconds, some at the subject's very moments or exactly the match away from them.
        const choice = next();
        if (p > 0 && choice < 0.15 && subjectTimes.length > 0) t = Math.max(t + 1000, subjectTimes[Math.floor(next() * subjectTimes.length)]! + (next() < 0.5 ? 0 : MATCH_MS));
        else t += 1000 * (1 + Math.floor(next() * 40));
        north = Math.max(-40, Math.min(40, north + next() * 16 - 8));
        east = Math.max(-40, Math.min(40, east + next() * 16 - 8));
        if (p === 0) subjectTimes.push(t);
        rows.push({
          deviceId: `walk-${p}`,
          prisonerId: person.prisonerId,
          staffId: person.staffId,
          recordedAt: new Date(t),
          latitude: LAT + north / METERS_PER_DEGREE,
          longitude: LNG + east / (METERS_PER_DEGREE * Math.cos((LAT * Math.PI) / 180)),
        });
      }
    });
    // The subject wears a second tracker that reports in the same milliseconds as the first now and then.
    for (const t of subjectTimes.filter((_, i) => i % 9 === 0)) {
      rows.push({ deviceId: 'walk-0-spare', prisonerId: subject, staffId: null, recordedAt: new Date(t), latitude: LAT + 3 / METERS_PER_DEGREE, longitude: LNG });
    }
    for (let i = 0; i < rows.length; i += 500) await ctx().database.db.insert(positions).values(rows.slice(i, i + 500));
  }, 120_000);

  /** The rule in JavaScript over the candidates the probes read: the answer as it was before the database matched. */
  async function theRule(query: NearQuery) {
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    const person = query.prisoner_id !== undefined ? { kind: 'prisoner' as const, id: query.prisoner_id } : query.staff_id !== undefined ? { kind: 'staff' as const, id: query.staff_id } : null;
    const track = person ? await personTrack(ctx().database.db, person, from - MATCH_MS, to + MATCH_MS) : null;
    const where = track ?? { lat: query.lat!, lng: query.lng! };
    return peopleNear(await fixesInProbes(ctx().database.db, probesFor(where, query.radius_m, from, to), person, []), where, query.radius_m);
  }

  const asText = (people: { prisonerId: number | null; staffId: number | null; firstAt: number; lastAt: number; fixes: number; minDistanceM: number }[]) =>
    people.map((p) => `${p.prisonerId}/${p.staffId} ${p.firstAt}-${p.lastAt} ${p.fixes} fixes ${Math.round(p.minDistanceM * 100) / 100} m`);
  const answerAsText = (answer: NearResponse) =>
    asText(answer.data.map((d) => ({ prisonerId: d.prisoner_id, staffId: d.staff_id, firstAt: Date.parse(d.first_at), lastAt: Date.parse(d.last_at), fixes: d.fixes, minDistanceM: d.min_distance_m })));

  const window = (minutes: number) => ({ from: new Date(BASE).toISOString(), to: new Date(BASE + minutes * 60_000).toISOString() });

  it('the same people, first and last moments, fix counts and minimum distances, in the same order, for a prisoner, staff and a place', async () => {
    const questions: NearQuery[] = [
      { prisoner_id: subject, ...window(150), radius_m: 25 },
      { prisoner_id: subject, ...window(150), radius_m: 100 },
      { prisoner_id: subject, ...window(7), radius_m: 10 },
      { staff_id: staffSubject, ...window(150), radius_m: 20 },
      { lat: LAT, lng: LNG, ...window(150), radius_m: 15 },
    ];
    for (const query of questions) {
      const expected = asText(await theRule(query));
      const answer = await whoWasNear(ctx().database, query, [], 60_000);
      expect(answerAsText(answer), JSON.stringify(query)).toEqual(expected);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
    }
  });

  it('a question that cannot be answered within HEAVY_QUERY_TIMEOUT_MS answers 400 naming the window and the radius, and changes nothing', async () => {
    const res = await ctx().api('GET', `/location/near?prisoner_id=${subject}&from=${window(150).from}&to=${window(150).to}&radius_m=100`);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^to: too large to answer within .*narrow the window \(from, to\) or the radius \(radius_m\)$/);
  });

  it('every investigation, history, replay and export declares itself a heavy question (one shared limit per account)', () => {
    const heavy = ctx()
      .app.registeredRoutes.filter((r) => r.heavyQuery)
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(heavy).toEqual(
      ['/audit/export', '/location/contacts', '/location/export', '/location/history', '/location/near', '/location/replay', '/location/snapshot']
        .map((url) => `GET ${API_PREFIX}${url}`)
        .sort(),
    );
  });
});
