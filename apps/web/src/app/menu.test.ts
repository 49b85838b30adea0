// Each role's tools first (decision 102): the daily tools lead both menus, screens a role can do nothing on are not
// listed, and the desktop top line never holds more than fits at 1440 px.
import { describe, expect, it } from 'vitest';
import { ROLES } from '@prison/shared/roles';
import { DESKTOP_TOP_LINKS, desktopMenu, phoneMenu } from './menu';

const labels = (links: { label: string }[]) => links.map((l) => l.label);

describe('the menu follows the role', () => {
  it("puts an officer's Counts, Checks, Movements and Map first, on a phone and on a desktop", () => {
    expect(labels(phoneMenu('officer').daily)).toEqual(['Counts', 'Checks', 'Movements', 'Live Map']);
    expect(labels(desktopMenu('officer').top).slice(0, 4)).toEqual(['Counts', 'Checks', 'Movements', 'Live Map']);
    // The phone's alerts screen is its own path; nothing is listed twice.
    const all = [...phoneMenu('officer').daily, ...phoneMenu('officer').others];
    expect(new Set(all.map((l) => l.to)).size).toBe(all.length);
    expect(all.map((l) => l.to)).toContain('/alerts');
  });

  it('hides the screens a role can do nothing on, and those it may not open', () => {
    const phone = (role: (typeof ROLES)[number]) => labels([...phoneMenu(role).daily, ...phoneMenu(role).others]);
    for (const screen of ['Counts', 'Checks', 'Movements', 'Readers', 'Site plan']) {
      expect(phone('auditor'), screen).not.toContain(screen);
      expect(phone('records'), screen).not.toContain(screen);
    }
    expect(phone('auditor')).toContain('Audit');
    expect(phone('officer')).not.toContain('Audit');
    expect(phone('officer')).not.toContain('Readers');
    expect(phone('administrator')).toEqual(expect.arrayContaining(['Readers', 'Site plan', 'Counts', 'Audit']));
    expect(labels(phoneMenu(null).others)).toEqual(['Home']);
  });

  it('keeps every screen of a role on the desktop, the top line at most nine links', () => {
    for (const role of ROLES) {
      const { top, more } = desktopMenu(role);
      expect(top.length, role).toBeLessThanOrEqual(DESKTOP_TOP_LINKS);
      const desktop = [...top, ...more.flatMap((s) => s.links)].map((l) => l.label).sort();
      const phone = [...phoneMenu(role).daily, ...phoneMenu(role).others].map((l) => l.label).sort();
      expect(desktop, role).toEqual(phone);
    }
    // An administrator's line is the one it was (decision 053), his daily tools first.
    expect(labels(desktopMenu('administrator').top)).toEqual([
      'Live Map',
      'Alerts and Notifications',
      'Manage Roles',
      'Cells',
      'Home',
      'Location History',
      'Communication',
      'Audit',
      'Profile',
    ]);
  });
});
