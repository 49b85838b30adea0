// useMay's rule (decision 053): the shared table decides, an unknown role may nothing; and which action each screen
// needs to open.
import { describe, expect, it } from 'vitest';
import { ACTIONS, ROLES, roleMay, type Action } from '@prison/shared/roles';
import { may } from './use-may';
import { SCREEN_ACTIONS, screenAction } from '../app/route-access';

const READS: Action[] = ['records.read', 'live.read', 'audit.read', 'self'];

describe('may', () => {
  it('answers as the shared table for every role and action, and nothing before the role is known', () => {
    for (const role of ROLES) for (const action of ACTIONS) expect(may(role, action)).toBe(roleMay(role, action));
    for (const action of ACTIONS) expect(may(null, action)).toBe(false);
  });

  it('an auditor may read everything and change nothing, but call for help and confirm reading a handover', () => {
    // Confirming a handover records only that this account read it: every account that logs in is asked.
    const auditorMay: Action[] = [...READS, 'duress.raise', 'handovers.confirm'];
    for (const action of ACTIONS) expect(may('auditor', action), action).toBe(auditorMay.includes(action));
  });

  it('a records clerk has no geofence tools or alert actions; an officer no record, cell or account changes', () => {
    expect(may('records', 'geofences.write')).toBe(false);
    expect(may('records', 'alerts.work')).toBe(false);
    expect(may('records', 'records.write')).toBe(true);
    for (const action of ['records.write', 'records.delete', 'cells.manage', 'accounts.manage'] as const)
      expect(may('officer', action), action).toBe(false);
    expect(may('officer', 'alerts.work')).toBe(true);
  });
});

describe('screenAction', () => {
  it('names the action each protected screen needs, by its first segment', () => {
    expect(screenAction('/audit')).toBe('audit.read');
    expect(screenAction('/prisoner-details/42')).toBe('records.read');
    expect(screenAction('/allAlerts')).toBe('live.read');
    expect(screenAction('/profile')).toBe('self');
    expect(screenAction('/')).toBeNull();
    expect(screenAction('/login')).toBeNull();
  });

  it('an operator, an officer and a records clerk may not open the audit trail; only an administrator places the site plan; every role opens the rest', () => {
    for (const role of ['operator', 'officer', 'records'] as const)
      expect(may(role, screenAction('/audit')!)).toBe(false);
    for (const role of ROLES) expect(may(role, screenAction('/site-plan')!), `${role} /site-plan`).toBe(role === 'administrator');
    for (const role of ROLES)
      for (const [path, action] of Object.entries(SCREEN_ACTIONS))
        if (path !== '/audit' && path !== '/site-plan') expect(may(role, action), `${role} ${path}`).toBe(true);
  });
});
