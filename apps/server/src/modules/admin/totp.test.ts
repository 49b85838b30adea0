// Two-factor login: enrolment on /profile, login with a code, no code twice, recovery codes once,
// failed codes toward the lockout, disable with a code, reset-totp, and REQUIRE_TOTP.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { generate } from 'otplib';
import {
  API_PREFIX,
  INVALID_TOTP_MESSAGE,
  LOCKED_LOGIN_MESSAGE,
  TOTP_ENROLMENT_REQUIRED_MESSAGE,
  TOTP_REQUIRED_MESSAGE,
} from '@prison/shared';
import { describeEachEngine, describeOnPglite } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp, type TestContext } from '../../../test/test-app';
import { eq } from 'drizzle-orm';
import { loginThrottle } from '../../db/schema';
import { createAdmin, resetTotp } from './admin-service';

const loginUrl = `${API_PREFIX}/admin/login`;

/** Date frozen at 5 s into a 30 s step near now, so each code's step is known; `advance` moves whole steps. */
function useFrozenClock() {
  let now = 0;
  beforeAll(() => {
    now = Math.floor(Date.now() / 30_000) * 30_000 + 5_000;
    vi.useFakeTimers({ toFake: ['Date'], now });
  });
  afterAll(() => vi.useRealTimers());
  return {
    epoch: (stepsFromNow = 0) => Math.floor(now / 1000) + stepsFromNow * 30,
    advance(steps: number) {
      now += steps * 30_000;
      vi.setSystemTime(now);
    },
  };
}

async function loginAs(ctx: TestContext, username: string, password: string, totp?: string) {
  return ctx.app.inject({ method: 'POST', url: loginUrl, payload: { username, password, ...(totp ? { totp } : {}) } });
}

/** Logs in (no second factor yet) and enrols; returns the secret, the recovery codes and the session's token. */
async function enrol(ctx: TestContext, username: string, password: string, code: (secret: string) => Promise<string>) {
  await createAdmin(ctx.database.db, { username, password });
  const token = (await loginAs(ctx, username, password)).json().token as string;
  const as = (method: string, url: string, payload?: Record<string, unknown>) =>
    ctx.app.inject({
      method: method as 'GET',
      url: `${API_PREFIX}${url}`,
      payload,
      headers: { authorization: `Bearer ${token}` },
    });
  const setup = await as('POST', '/profile/totp/setup');
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json() as { secret: string };
  const confirm = await as('POST', '/profile/totp/confirm', { code: await code(secret), current_password: password });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { secret, recoveryCodes: confirm.json().recovery_codes as string[], as };
}

describeEachEngine('two-factor login', (engine) => {
  const ctx = useTestApp(engine, { LOGIN_RATE_LIMIT_PER_MINUTE: 10_000 });
  const clock = useFrozenClock();

  it('enrols with a QR code and the secret, confirmed by a first code; ten single-use recovery codes', async () => {
    await createAdmin(ctx().database.db, { username: 'otp-enrol', password: 'enrolment phrase' });
    const token = (await loginAs(ctx(), 'otp-enrol', 'enrolment phrase')).json().token as string;
    const as = (method: string, url: string, payload?: Record<string, unknown>) =>
      ctx().app.inject({
        method: method as 'GET',
        url: `${API_PREFIX}${url}`,
        payload,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await as('GET', '/profile/totp')).json()).toEqual({
      enabled: false,
      recovery_codes_left: 0,
      required: false,
    });
    const confirmEarly = await as('POST', '/profile/totp/confirm', { code: '123456', current_password: 'enrolment phrase' });
    expect(confirmEarly.statusCode).toBe(400);

    const setup = (await as('POST', '/profile/totp/setup')).json();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*otp-enrol.*secret=/);
    expect(setup.qr_code).toMatch(/^data:image\/png;base64,/);
    const wrong = await as('POST', '/profile/totp/confirm', {
      code: '000000' === (await generate({ secret: setup.secret })) ? '111111' : '000000',
      current_password: 'enrolment phrase',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^code: /);

    const confirm = await as('POST', '/profile/totp/confirm', {
      code: await generate({ secret: setup.secret }),
      current_password: 'enrolment phrase',
    });
    expect(confirm.statusCode).toBe(200);
    const codes = confirm.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await as('GET', '/profile/totp')).json()).toEqual({
      enabled: true,
      recovery_codes_left: 10,
      required: false,
    });
    // A second set-up is refused while it is on.
    expect((await as('POST', '/profile/totp/setup')).statusCode).toBe(409);
  });

  it('asks for the code, logs in with it once, never twice, also in parallel; recovery codes work once', async () => {
    // Enrolled with the previous step's code (within the one-step tolerance): the current step is still unused.
    const { secret, recoveryCodes } = await enrol(ctx(), 'otp-login', 'login phrase here', (s) =>
      generate({ secret: s, epoch: clock.epoch(-1) }),
    );
    const asked = await loginAs(ctx(), 'otp-login', 'login phrase here');
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toEqual({ message: TOTP_REQUIRED_MESSAGE, totpRequired: true });
    // A wrong password with no code gives nothing away.
    expect((await loginAs(ctx(), 'otp-login', 'not the phrase')).json()).toEqual({
      message: 'Invalid username or password',
    });

    const code = await generate({ secret, epoch: clock.epoch() });
    const ok = await loginAs(ctx(), 'otp-login', 'login phrase here', code);
    expect(ok.statusCode).toBe(200);
    const again = await loginAs(ctx(), 'otp-login', 'login phrase here', code);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ message: INVALID_TOTP_MESSAGE });
    // An older code than the last accepted is refused too.
    expect(
      (await loginAs(ctx(), 'otp-login', 'login phrase here', await generate({ secret, epoch: clock.epoch(-1) })))
        .statusCode,
    ).toBe(401);

    clock.advance(1);
    const next = await generate({ secret, epoch: clock.epoch() });
    const racing = await Promise.all([1, 2, 3].map(() => loginAs(ctx(), 'otp-login', 'login phrase here', next)));
    // One wins; the others are refused (as a used code, or by the lockout the earlier refusals filled up).
    expect(racing.filter((r) => r.statusCode === 200)).toHaveLength(1);
    await ctx().database.db.delete(loginThrottle).where(eq(loginThrottle.username, 'otp-login'));

    const recovery = recoveryCodes[0]!;
    expect((await loginAs(ctx(), 'otp-login', 'login phrase here', recovery.toUpperCase())).statusCode).toBe(200);
    expect((await loginAs(ctx(), 'otp-login', 'login phrase here', recovery)).statusCode).toBe(401);
    // A right code never rescues a wrong password.
    expect((await loginAs(ctx(), 'otp-login', 'not the phrase', recoveryCodes[1])).statusCode).toBe(401);
  });

  it('counts failed codes toward the lockout', async () => {
    const { secret } = await enrol(ctx(), 'otp-lock', 'lockout phrase here', (s) =>
      generate({ secret: s, epoch: clock.epoch(-1) }),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await loginAs(ctx(), 'otp-lock', 'lockout phrase here', `00000${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const right = await loginAs(
      ctx(),
      'otp-lock',
      'lockout phrase here',
      await generate({ secret, epoch: clock.epoch() }),
    );
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ message: LOCKED_LOGIN_MESSAGE });
  });

  it('turns off with a code; reset-totp removes it for a lost phone', async () => {
    const { recoveryCodes, as } = await enrol(ctx(), 'otp-off', 'switch off phrase', (s) =>
      generate({ secret: s, epoch: clock.epoch(-1) }),
    );
    expect((await as('POST', '/profile/totp/disable', { code: 'aaaaa-bbbbb' })).statusCode).toBe(400);
    expect((await as('POST', '/profile/totp/disable', { code: recoveryCodes[3] })).statusCode).toBe(200);
    expect((await loginAs(ctx(), 'otp-off', 'switch off phrase')).statusCode).toBe(200);

    await enrol(ctx(), 'otp-lost', 'lost phone phrase', (s) => generate({ secret: s, epoch: clock.epoch(-1) }));
    expect((await loginAs(ctx(), 'otp-lost', 'lost phone phrase')).json().totpRequired).toBe(true);
    await resetTotp(ctx().database.db, 'otp-lost');
    expect((await loginAs(ctx(), 'otp-lost', 'lost phone phrase')).statusCode).toBe(200);
  });
});

describeOnPglite('REQUIRE_TOTP', () => {
  const ctx = useTestApp('pglite', { REQUIRE_TOTP: true });

  it('lets an admin without two-factor login reach only its enrolment until it is on', async () => {
    const verify = await ctx().api('GET', '/admin/verify-token');
    expect(verify.json()).toMatchObject({
      username: TEST_ADMIN.username,
      totpEnrolmentRequired: true,
      passwordChangeRequired: false,
    });
    const blocked = await ctx().api('GET', '/admins');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ message: TOTP_ENROLMENT_REQUIRED_MESSAGE });
    expect((await ctx().api('GET', '/profile/totp')).json()).toMatchObject({ enabled: false, required: true });

    const { secret } = (await ctx().api('POST', '/profile/totp/setup')).json();
    const confirmed = await ctx().api('POST', '/profile/totp/confirm', {
      code: await generate({ secret }),
      current_password: TEST_ADMIN.password,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await ctx().api('GET', '/admin/verify-token')).json()).toMatchObject({ totpEnrolmentRequired: false });
    expect((await ctx().api('GET', '/admins')).statusCode).toBe(200);
  });
});

// Its own app: the code routes' rate limit (10 a minute per address) is spent by the tests above.
describeEachEngine('turning two-factor login on', (engine) => {
  const ctx = useTestApp(engine, { LOGIN_RATE_LIMIT_PER_MINUTE: 10_000 });

  it('turns on only with the current password, and ends the other sessions but not this one (issue 20)', async () => {
    await createAdmin(ctx().database.db, { username: 'otp-owner', password: 'owner phrase here' });
    const token = (await loginAs(ctx(), 'otp-owner', 'owner phrase here')).json().token as string;
    const otherToken = (await loginAs(ctx(), 'otp-owner', 'owner phrase here')).json().token as string;
    const as = (method: string, url: string, payload?: Record<string, unknown>, bearer = token) =>
      ctx().app.inject({
        method: method as 'GET',
        url: `${API_PREFIX}${url}`,
        payload,
        headers: { authorization: `Bearer ${bearer}` },
      });
    const { secret } = (await as('POST', '/profile/totp/setup')).json();
    const code = await generate({ secret });
    // A stolen session without the password: nothing changes, both sessions live.
    for (const [body, message] of [
      [{ code }, 'current_password: current_password is required'],
      [{ code, current_password: '' }, 'current_password: current_password is required'],
      [{ code, current_password: 'a guessed phrase' }, 'current_password: is not correct'],
    ] as const) {
      const refused = await as('POST', '/profile/totp/confirm', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().message).toBe(message);
    }
    expect((await as('GET', '/profile/totp')).json()).toMatchObject({ enabled: false });
    expect((await as('GET', '/admin/verify-token', undefined, otherToken)).statusCode).toBe(200);

    const confirmed = await as('POST', '/profile/totp/confirm', { code, current_password: 'owner phrase here' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const ended = await as('GET', '/admin/verify-token', undefined, otherToken);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().reason).toBe('two_factor_enabled');
    expect((await as('GET', '/admin/verify-token')).statusCode).toBe(200);
  });
});
