// Staff roles and what each may do, without a schema: the screens every page shows (the menu, the no-access page)
// read it without loading the validation library.
export const ROLES = ['administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  administrator: 'Administrator',
  supervisor: 'Supervisor',
  operator: 'Control room operator',
  officer: 'Wing officer',
  records: 'Records clerk',
  auditor: 'Auditor',
};

/** Every action a route or socket event may need, with the roles that may take it. */
export const ACTION_ROLES = {
  /** Read prisoners, staff, cells, blocks, trackers, escorts, keep-apart pairs, incidents, the overview, settings. */
  'records.read': ['administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'],
  /** Create and edit prisoners and staff, assign cells under the rules, archive and restore custody records. */
  'records.write': ['administrator', 'supervisor', 'records'],
  /** Delete prisoners and staff. */
  'records.delete': ['administrator', 'supervisor', 'records'],
  /** Create, edit and delete cells and blocks. */
  'cells.manage': ['administrator', 'supervisor', 'records'],
  /** Assign a cell against a cell rule (the override with a reason). */
  'cells.override': ['administrator', 'supervisor'],
  /** Read live positions, the live feed, alerts, history, replays and exports. */
  'live.read': ['administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'],
  /** Create, edit and delete geofences and zones. */
  'geofences.write': ['administrator', 'supervisor', 'operator'],
  /** Acknowledge, assign, note, resolve and reopen alerts. */
  'alerts.work': ['administrator', 'supervisor', 'operator', 'officer'],
  /**
   * Raise a duress alarm ("Need assistance") and stand one's own down (decision 100). Every role: whoever is in the
   * prison may be in danger, an auditor or a records clerk on a wing included; a false alarm costs less than a refused one.
   */
  'duress.raise': ['administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'],
  /** Start, change and end escorts. */
  'escorts.write': ['administrator', 'supervisor', 'operator', 'officer'],
  /** Start, submit and close roll counts of the blocks of one's caseload. */
  'counts.work': ['administrator', 'supervisor', 'operator', 'officer'],
  /** Record observation (welfare) checks and constant-watch handovers (officers for their blocks). */
  'observations.record': ['administrator', 'supervisor', 'operator', 'officer'],
  /** Set and clear a prisoner's risk and medical flags (decision 101; officers for their blocks' prisoners). */
  'flags.write': ['administrator', 'supervisor', 'officer', 'records'],
  /** Set a prisoner's observation level and interval, with a reason. */
  'observations.level': ['administrator', 'supervisor', 'officer'],
  /** Start controlled movements; an officer only for prisoners of his blocks. */
  'movements.write': ['administrator', 'supervisor', 'operator', 'officer'],
  /** Post to the communication log. */
  'messages.post': ['administrator', 'supervisor', 'operator', 'officer'],
  /** Confirm having read a handover entry of the log: every account the next shift logs in with. */
  'handovers.confirm': ['administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'],
  /** Register, edit, assign and delete trackers, and change their secrets. */
  'devices.write': ['administrator', 'supervisor'],
  /** Register and remove fixed indoor readers. */
  'readers.write': ['administrator', 'supervisor'],
  /** Declare keep-apart pairs. */
  'keepapart.create': ['administrator', 'supervisor', 'records'],
  /** End keep-apart pairs. */
  'keepapart.end': ['administrator', 'supervisor'],
  /** Open, edit and close incidents. */
  'incidents.write': ['administrator', 'supervisor', 'operator'],
  /** Approve or reject a change that weakens an alarm (decision 041). */
  'changes.decide': ['administrator', 'supervisor'],
  /** Read the audit trail. */
  'audit.read': ['administrator', 'supervisor', 'auditor'],
  /** Create, edit, disable accounts, their roles and blocks, and end their sessions. */
  'accounts.manage': ['administrator'],
  /** Change the settings. */
  'settings.write': ['administrator'],
  /** One's own profile, password, two-factor login, sessions and logout. */
  self: ['administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof ACTION_ROLES;
export const ACTIONS = Object.keys(ACTION_ROLES) as Action[];

/** Whether a role may take an action. */
export function roleMay(who: Role, action: Action): boolean {
  return (ACTION_ROLES[action] as readonly Role[]).includes(who);
}

/** What an action is, in the words of a refusal ("A Records clerk may not ..."). */
export const ACTION_LABELS: Record<Action, string> = {
  'records.read': 'read records',
  'records.write': 'change records',
  'records.delete': 'delete records',
  'cells.manage': 'manage cells and blocks',
  'cells.override': 'override a cell rule',
  'live.read': 'read live positions and alerts',
  'geofences.write': 'change geofences',
  'alerts.work': 'work alerts',
  'duress.raise': 'raise a duress alarm',
  'escorts.write': 'change escorts',
  'counts.work': 'do roll counts',
  'observations.record': 'record observation checks',
  'observations.level': 'set observation levels',
  'flags.write': "set prisoners' flags",
  'movements.write': 'start controlled movements',
  'messages.post': 'post to the communication log',
  'handovers.confirm': 'confirm reading a handover',
  'devices.write': 'change trackers',
  'readers.write': 'change indoor readers',
  'keepapart.create': 'declare keep-apart pairs',
  'keepapart.end': 'end keep-apart pairs',
  'incidents.write': 'change incidents',
  'changes.decide': 'approve or reject changes',
  'audit.read': 'read the audit trail',
  'accounts.manage': 'manage accounts',
  'settings.write': 'change settings',
  self: 'use their own profile',
};

/** The 403 message of a refused action: it names the role and the action. */
export function forbiddenMessage(who: Role, action: Action): string {
  return `Your role (${ROLE_LABELS[who]}) may not ${ACTION_LABELS[action]}`;
}

/**
 * Roles whose accounts must hold at least one block (decision 093): an empty caseload means every block, and a wing
 * officer works on his own wing's prisoners only.
 */
export const ROLES_NEEDING_BLOCKS: readonly Role[] = ['officer'];

export function roleNeedsBlocks(who: Role): boolean {
  return ROLES_NEEDING_BLOCKS.includes(who);
}

/** Why an account of such a role with no block is refused (after `blocks: ` in an answer; the account form shows it). */
export const NEEDS_BLOCKS_MESSAGE = 'a wing officer needs at least one block';

/** Whether a caseload covers every block (and so also the prisoners with no cell). */
export function seesEveryBlock(blocks: readonly string[]): boolean {
  return blocks.length === 0;
}

/** The page shown for a URL the role may not open. */
export const NO_ACCESS_MESSAGE = 'You do not have access to this page';
