// The menu (decision 102, after 053): every screen in one order, each role's daily tools first, and a screen listed
// only when the role may open it and, for a screen made for doing (counts, checks, movements, readers), may do it
// there. The desktop top line keeps to one line at 1440 px; what does not fit goes under "More" with the rest.
import { roleMay, type Action, type Role } from '@prison/shared/role-access';
import type { NavSection } from './nav-more';
import { screenAction } from './route-access';

export interface MenuLink {
  to: string;
  label: string;
}

interface MenuEntry extends MenuLink {
  /** The phone menu's path when it differs (the alerts screen has a phone layout of its own). */
  phoneTo?: string;
  /** Where the desktop menu puts it when it is not a daily tool: the top line, or a section of "More". */
  section: 'top' | "The prison's day" | 'Investigations' | 'Site';
  /** A screen for doing: listed only for a role that may take one of these there. */
  acts?: readonly Action[];
}

const MENU: readonly MenuEntry[] = [
  { to: '/', label: 'Home', section: 'top' },
  { to: '/dashboard', label: 'Manage Roles', section: 'top' },
  { to: '/live-map', label: 'Live Map', section: 'top' },
  { to: '/location-history', label: 'Location History', section: 'top' },
  { to: '/allAlerts', phoneTo: '/alerts', label: 'Alerts and Notifications', section: 'top' },
  { to: '/cell-assign', label: 'Cells', section: 'top' },
  { to: '/communication', label: 'Communication', section: 'top' },
  { to: '/audit', label: 'Audit', section: 'top' },
  { to: '/profile', label: 'Profile', section: 'top' },
  { to: '/counts', label: 'Counts', section: "The prison's day", acts: ['counts.work'] },
  { to: '/observations', label: 'Checks', section: "The prison's day", acts: ['observations.record', 'observations.level'] },
  { to: '/movements', label: 'Movements', section: "The prison's day", acts: ['movements.write'] },
  { to: '/investigations/near', label: 'Who was near', section: 'Investigations' },
  { to: '/replay', label: 'Replay', section: 'Investigations' },
  { to: '/incidents', label: 'Incidents', section: 'Investigations' },
  { to: '/readers', label: 'Readers', section: 'Site', acts: ['readers.write'] },
  { to: '/site-plan', label: 'Site plan', section: 'Site' },
];

/** Each role's daily tools, in the order it reaches for them: first in both menus. */
export const DAILY_TOOLS: Record<Role, readonly string[]> = {
  officer: ['/counts', '/observations', '/movements', '/live-map'],
  operator: ['/live-map', '/allAlerts', '/movements', '/communication'],
  supervisor: ['/live-map', '/allAlerts', '/counts', '/movements'],
  administrator: ['/live-map', '/allAlerts', '/dashboard', '/cell-assign'],
  records: ['/dashboard', '/cell-assign'],
  auditor: ['/audit', '/location-history', '/replay'],
};

/** The most links on the desktop top line: it stays one line at 1440 px beside the name, role and Logout. */
export const DESKTOP_TOP_LINKS = 9;

function listed(role: Role | null, entry: MenuEntry): boolean {
  const opens = screenAction(entry.to);
  if (opens && (!role || !roleMay(role, opens))) return false;
  return !entry.acts || (role !== null && entry.acts.some((action) => roleMay(role, action)));
}

/** The role's screens: its daily tools first, then the others in the menu's order. */
function screensFor(role: Role | null): { daily: MenuEntry[]; others: MenuEntry[] } {
  const shown = MENU.filter((entry) => listed(role, entry));
  const daily = (role ? DAILY_TOOLS[role] : []).flatMap((to) => shown.filter((entry) => entry.to === to));
  return { daily, others: shown.filter((entry) => !daily.includes(entry)) };
}

const link = ({ to, label }: MenuEntry): MenuLink => ({ to, label });

/** The phone menu: the daily tools, then every other screen the role has. */
export function phoneMenu(role: Role | null): { daily: MenuLink[]; others: MenuLink[] } {
  const { daily, others } = screensFor(role);
  const phone = (entry: MenuEntry) => ({ to: entry.phoneTo ?? entry.to, label: entry.label });
  return { daily: daily.map(phone), others: others.map(phone) };
}

/** The desktop menu: the top line (daily tools first) and the sections of "More". */
export function desktopMenu(role: Role | null): { top: MenuLink[]; more: NavSection[] } {
  const { daily, others } = screensFor(role);
  const line = [...daily, ...others.filter((entry) => entry.section === 'top')];
  const more: NavSection[] = [];
  for (const entry of others.filter((e) => e.section !== 'top')) {
    const section = more.find((s) => s.title === entry.section);
    if (section) section.links.push(link(entry));
    else more.push({ title: entry.section, links: [link(entry)] });
  }
  const overflow = line.slice(DESKTOP_TOP_LINKS);
  if (overflow.length > 0) more.push({ title: 'Other screens', links: overflow.map(link) });
  return { top: line.slice(0, DESKTOP_TOP_LINKS).map(link), more };
}
