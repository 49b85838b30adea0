// The whole relational model. Occupancy is never stored: it is counted from prisoners (docs/CLIENT-CONTRACT.md).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AlertResponder,
  CountAccount,
  CountLine,
  CountSubmission,
  DeviceKind,
  MessageLinkKind,
  MessageType,
  NearbyStaffEntry,
  Role,
} from '@prison/shared';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const admins = pgTable(
  'admins',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull().unique(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Set at login when the password no longer meets the rule; cleared by a change. Until then only /profile works. */
    passwordChangeRequired: boolean('password_change_required').notNull().default(false),
    /** Two-factor login (base32 TOTP secret); null when not enrolled. */
    totpSecret: text('totp_secret'),
    /** A secret being enrolled, until its first code confirms it. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last accepted TOTP time step: only a later one is accepted, so no code works twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** What the account may do (packages/shared/src/roles.ts). */
    role: text('role').$type<Role>().notNull().default('administrator'),
    /** The caseload: the block names whose prisoners it sees; empty means every block. */
    blocks: text('blocks')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * An account of single sign-on (decision 052): the identity provider's issuer and the account's subject there,
     * both set or both null. Its password hash is of a random secret nobody knows.
     */
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    /** The staff record of the person using this account: their tracker verifies observation checks (decision 063). */
    staffId: integer('staff_id')
      .unique()
      .references((): AnyPgColumn => staff.staffId, { onDelete: 'set null' }),
    /** The Critical alert sound as this account chose it; null: its role's default (decision 105). */
    criticalSound: boolean('critical_sound'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'admins_role_check',
      sql`${t.role} in ('administrator', 'supervisor', 'operator', 'officer', 'records', 'auditor')`,
    ),
    check('admins_oidc_identity_check', sql`(${t.oidcIssuer} is null) = (${t.oidcSubject} is null)`),
    uniqueIndex('admins_oidc_identity_unique').on(t.oidcIssuer, t.oidcSubject),
  ],
);

/**
 * A single sign-on in progress (decision 052): the browser holds a random key in a cookie, this row its sha256 with
 * the state, nonce and PKCE verifier sent to the provider; taken (deleted) by the callback, so it works once.
 */
export const oidcLoginAttempts = pgTable(
  'oidc_login_attempts',
  {
    keyHash: text('key_hash').primaryKey(),
    state: text('state').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oidc_login_attempts_expires_idx').on(t.expiresAt)],
);

/** Single-use recovery codes for two-factor login, stored as sha256 (they are random, like session tokens). */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
  },
  (t) => [uniqueIndex('admin_recovery_codes_code_idx').on(t.adminId, t.codeHash)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** sha256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last user activity (not background refetches), for SESSION_IDLE_MINUTES; written at most every few seconds. */
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why it was revoked (SESSION_END_REASONS), so the browser can say why; null for rows revoked before 0006. */
    endReason: text('end_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The ID token of a single sign-on login: the hint its logout gives the provider's end-session endpoint. */
    oidcIdToken: text('oidc_id_token'),
  },
  (t) => [index('sessions_admin_idx').on(t.adminId)],
);

/** Failed logins per username, for the lockout (counted even for names that do not exist). */
export const loginThrottle = pgTable('login_throttle', {
  username: text('username').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

export const cells = pgTable('cells', {
  cellId: text('cell_id').primaryKey(),
  block: text('block').notNull(),
  capacity: integer('capacity').notNull(),
  securityLevel: text('security_level').notNull(),
  createdAt: createdAt(),
});

export const devices = pgTable(
  'devices',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** sha256 of the device secret: a random high-entropy token, checked on every fix. */
    secretHash: text('secret_hash').notNull(),
    /**
     * This device must send its secret on every protocol even while DEVICE_SECRET_REQUIRED is off (decision 038); with
     * the setting on (the default), every device must.
     */
    secretRequired: boolean('secret_required').notNull().default(false),
    /** Phone (reports its own position) or tag (placed only by the readers that see it), fixed at registration (092). */
    kind: text('kind').$type<DeviceKind>().notNull().default('phone'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    lastFixAt: timestamp('last_fix_at', { withTimezone: true }),
    lastLatitude: doublePrecision('last_latitude'),
    lastLongitude: doublePrecision('last_longitude'),
    lastBattery: real('last_battery'),
    online: boolean('online').notNull().default(false),
    lowBatteryAlerted: boolean('low_battery_alerted').notNull().default(false),
    /**
     * Cluster mode (decision 036): bumped by every transaction that changes this device's tracking state, under its row
     * lock; a process whose remembered revision differs reloads the state (and `engine_state`) before evaluating.
     */
    revision: integer('revision').notNull().default(0),
    /** Cluster mode: the geofence engine's memory of this device (dwell, edges, running violations), portable. */
    engineState: jsonb('engine_state'),
    /**
     * Cluster mode: the process instance that wrote `engine_state` last, which runs the device's timers (dwell, schedule
     * ends). When that instance is gone, the leader adopts the device.
     */
    engineNode: text('engine_node'),
    createdAt: createdAt(),
  },
  (t) => [index('devices_engine_node_idx').on(t.engineNode), check('devices_kind_check', sql`${t.kind} in ('phone', 'tag')`)],
);

/**
 * What the free-text prisoner search (`q`) reads: full name, nationality and cell in one lower-case text, so one
 * trigram index (migration 0004, pg_trgm) answers "contains" queries instead of a scan of every row.
 */
export const prisonerSearchText = (t: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  nationalId: AnyPgColumn;
  cellId: AnyPgColumn;
  prisonNumber: AnyPgColumn;
}) =>
  sql`lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || coalesce(${t.nationalId}, '') || ' ' || coalesce(${t.cellId}, '') || ' ' || ${t.prisonNumber})`;

export const prisoners = pgTable(
  'prisoners',
  {
    prisonerId: serial('prisoner_id').primaryKey(),
    /** The prison's number for him (A0001...): unique across archived records too; given, or the next of the sequence. */
    prisonNumber: text('prison_number').notNull().default(sql`next_prison_number()`),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    dateOfBirth: date('date_of_birth'),
    gender: text('gender'),
    nationalId: text('national_id'),
    entryDate: date('entry_date'),
    releaseDate: date('release_date'),
    status: text('status'),
    cellId: text('cell_id').references(() => cells.cellId, { onDelete: 'restrict', onUpdate: 'cascade' }),
    behaviorRecord: text('behavior_record'),
    medicalHistory: text('medical_history'),
    trackingDeviceId: text('tracking_device_id')
      .unique()
      .references(() => devices.id, { onDelete: 'set null', onUpdate: 'cascade' }),
    /** The spec's Delete archives (decision 042): out of every list and count, record and history kept, restorable. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archivedBy: text('archived_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('prisoners_cell_idx').on(t.cellId),
    uniqueIndex('prisoners_prison_number_idx').on(t.prisonNumber),
    index('prisoners_name_idx').on(t.lastName, t.firstName),
    // The list order (newest first, id as tie-break), and the name filters (case-insensitive prefix) and status filter.
    // Migration 0003 adds INCLUDE (the name) to the prefix indexes, which drizzle cannot declare.
    index('prisoners_created_idx').on(t.createdAt, t.prisonerId),
    index('prisoners_last_name_prefix_idx').using('btree', sql`lower(${t.lastName}) text_pattern_ops`),
    index('prisoners_first_name_prefix_idx').using('btree', sql`lower(${t.firstName}) text_pattern_ops`),
    index('prisoners_status_idx').on(t.status, t.createdAt, t.prisonerId),
    index('prisoners_search_trgm_idx').using('gin', sql`${prisonerSearchText(t)} gin_trgm_ops`),
    // The operations overview's roll (decision 021): only the prisoners who take a place in a cell, with their device,
    // so counting them is an index-only scan that skips the released and transferred history.
    index('prisoners_assigned_cell_idx')
      .on(t.cellId, t.trackingDeviceId)
      .where(sql`${t.status} in ('On Trial', 'Incarcerated') and ${t.cellId} is not null and ${t.archivedAt} is null`),
    // The administrator's "Archived" list (decision 042), most recently archived first.
    index('prisoners_archived_idx')
      .on(t.archivedAt.desc(), t.prisonerId.desc())
      .where(sql`${t.archivedAt} is not null`),
  ],
);

export const staff = pgTable(
  'staff',
  {
    staffId: serial('staff_id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: text('role').notNull(),
    badgeNumber: text('badge_number').notNull().unique(),
    rank: text('rank'),
    department: text('department'),
    contactInfo: text('contact_info'),
    /** A tracker worn by this officer or guard (decision 035): never counted as a prisoner. */
    trackingDeviceId: text('tracking_device_id')
      .unique()
      .references(() => devices.id, { onDelete: 'set null', onUpdate: 'cascade' }),
    /** Retired (decision 042): a member with history is archived, not deleted, so their escorts keep their officer. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archivedBy: text('archived_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('staff_role_idx').on(t.role, t.createdAt)],
);

export const incidents = pgTable('incidents', {
  id: serial('id').primaryKey(),
  prisonerName: text('prisoner_name').notNull(),
  guardName: text('guard_name').notNull(),
  date: date('date').notNull(),
  time: text('time').notNull(),
  description: text('description').notNull(),
  actionTaken: text('action_taken').notNull(),
  /** The workflow (decision 069): reported -> investigating -> closed; each step in incident_steps. */
  status: text('status').notNull().default('reported'),
  /** The time window the incident replays; null for the incidents recorded without one. */
  windowFrom: timestamp('window_from', { withTimezone: true }),
  windowTo: timestamp('window_to', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [check('incidents_status_check', sql`${t.status} in ('reported', 'investigating', 'closed')`)]);

/** Who moved an incident to which status, and when (append-only). */
export const incidentSteps = pgTable(
  'incident_steps',
  {
    id: serial('id').primaryKey(),
    incidentId: integer('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    adminId: integer('admin_id'),
    actor: text('actor').notNull(),
    note: text('note'),
  },
  (t) => [index('incident_steps_incident_idx').on(t.incidentId, t.at)],
);

/** The alerts, prisoners and staff an incident names. */
export const incidentLinks = pgTable(
  'incident_links',
  {
    id: serial('id').primaryKey(),
    incidentId: integer('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    targetId: integer('target_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('incident_links_unique').on(t.incidentId, t.kind, t.targetId),
    check('incident_links_kind_check', sql`${t.kind} in ('alert', 'prisoner', 'staff')`),
  ],
);

/**
 * Every fix ever received: the location history. One row per device and device time (the key). Partitioned by day
 * (UTC) on recorded_at, with a default partition for a day not made yet (migration 0044; drizzle has no word for
 * partitions): the days are made ahead and dropped whole by retention in tracking/position-partitions.ts.
 */
export const positions = pgTable(
  'positions',
  {
    deviceId: text('device_id').notNull(),
    prisonerId: integer('prisoner_id'),
    /** The staff member wearing the tracker when the fix was stored (who was near names staff too). */
    staffId: integer('staff_id'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    accuracy: real('accuracy'),
    speed: real('speed'),
    bearing: real('bearing'),
    altitude: real('altitude'),
    battery: real('battery'),
  },
  (t) => [
    primaryKey({ name: 'positions_pkey', columns: [t.deviceId, t.recordedAt] }),
    // Covering: a history read (one prisoner, a time range) is an index-only scan, never one heap page per fix.
    index('positions_prisoner_time_idx').on(t.prisonerId, t.recordedAt, t.latitude, t.longitude, t.speed, t.accuracy),
    // Fixes are stored in about the order they arrive, so a time range is a few block ranges: a BRIN is enough.
    index('positions_recorded_idx').using('brin', t.recordedAt),
    index('positions_staff_time_idx')
      .on(t.staffId, t.recordedAt, t.latitude, t.longitude)
      .where(sql`${t.staffId} is not null`),
    // Who was near (decision 068): a grid cell of about 20 m and the time, so fixes near a place and a moment are one
    // index range per cell on PostgreSQL and PGlite alike. The expression is db/position-grid.ts's GRID_CELL_SQL.
    // Covering (migration 0032): the candidates are read from the index alone, not one heap page each. Each day's
    // partition is vacuumed after every 1% of new rows (autovacuum_vacuum_insert_scale_factor) so that holds for
    // recent fixes too.
    index('positions_grid_time_idx').using(
      'btree',
      sql`(floor(${t.latitude} * 5000)::bigint * 2000000 + floor((${t.longitude} + 180) * 5000)::bigint)`,
      t.recordedAt,
      t.latitude,
      t.longitude,
      t.prisonerId,
      t.staffId,
    ),
  ],
);

export const geofences = pgTable('geofences', {
  geofenceId: text('geofence_id').primaryKey(),
  name: text('name').notNull(),
  shape: text('shape').notNull(),
  type: text('type').notNull(),
  alertType: text('alert_type').notNull(),
  radius: doublePrecision('radius'),
  centerLat: doublePrecision('center_lat'),
  centerLng: doublePrecision('center_lng'),
  /** [[lat, lng], ...] for polygons and rectangles. */
  coordinates: jsonb('coordinates').$type<[number, number][]>(),
  dwellSeconds: integer('dwell_seconds').notNull().default(10),
  bufferMeters: doublePrecision('buffer_meters').notNull().default(0),
  /** Who it applies to: null for everyone, or `{ blocks?, prisoner_ids? }` (decision 033). */
  appliesTo: jsonb('applies_to').$type<{ blocks?: string[]; prisoner_ids?: number[] }>(),
  /** When it applies: null for always, or weekly windows in the prison's TZ (decision 034). */
  schedule: jsonb('schedule').$type<{ days: number[]; start: string; end: string }[]>(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The engine's memory per device and geofence, so a restart does not re-raise a running violation. */
export const geofenceStates = pgTable(
  'geofence_states',
  {
    deviceId: text('device_id').notNull(),
    geofenceId: text('geofence_id')
      .notNull()
      .references(() => geofences.geofenceId, { onDelete: 'cascade' }),
    violating: boolean('violating').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    alertId: integer('alert_id'),
  },
  (t) => [uniqueIndex('geofence_states_pk').on(t.deviceId, t.geofenceId)],
);

export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    alertType: text('alert_type').notNull(),
    /** geofence, offline, sos, tamper, battery or manual */
    kind: text('kind').notNull().default('manual'),
    details: text('details').notNull(),
    date: date('date').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    deviceId: text('device_id'),
    // Restrict, not set null: an alert keeps its prisoner (decision 042; prisoners are archived, never deleted).
    prisonerId: integer('prisoner_id').references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    geofenceId: text('geofence_id'),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    status: text('status').notNull().default('New'),
    acknowledgedBy: integer('acknowledged_by').references(() => admins.id),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => admins.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    note: text('note'),
    /**
     * Occurrences after the first folded into this alert: a device alarm repeated within 60 s (decision 038), and a
     * zone breach or an offline tracker of the same rule and person while the alert is not resolved. The API answers
     * `repeat_count` as every occurrence, the first included.
     */
    repeatCount: integer('repeat_count').notNull().default(0),
    lastRepeatAt: timestamp('last_repeat_at', { withTimezone: true }),
    /** False for an event rather than work (an Informational zone alert): out of the open queue, counts and toasts. */
    needsAction: boolean('needs_action').notNull().default(true),
    /** A staff SOS: the nearest other staff trackers at the alarm, as the API gives them (decision 072); else null. */
    nearbyStaff: jsonb('nearby_staff').$type<NearbyStaffEntry[]>(),
    /** A duress alarm (decision 100): the account that pressed "Need assistance", who alone may stand it down. */
    raisedBy: integer('raised_by').references(() => admins.id),
    /** The staff member an alert is about when no tracker names him (a duress from an account linked to a record). */
    staffId: integer('staff_id').references((): AnyPgColumn => staff.staffId, { onDelete: 'set null' }),
    /** Who said they are responding, and when, in the order they pressed (decision 100); null until someone does. */
    responding: jsonb('responding').$type<AlertResponder[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('alerts_timestamp_idx').on(t.timestamp),
    index('alerts_prisoner_idx').on(t.prisonerId, t.timestamp),
    index('alerts_status_idx').on(t.status),
    // POST /alert/all's repeat check (decision 019): one device's alerts stored in the last few minutes.
    index('alerts_device_created_idx').on(t.deviceId, t.createdAt),
    // The live map's "in violation" mark: geofence violations that have not ended, however old.
    index('alerts_open_violation_idx')
      .on(t.prisonerId)
      .where(sql`${t.kind} = 'geofence' and ${t.endedAt} is null`),
    // A device alarm's open alert, which a repeat of the alarm updates (decision 038).
    index('alerts_open_alarm_idx')
      .on(t.deviceId, t.kind)
      .where(sql`${t.kind} in ('sos', 'tamper') and ${t.status} <> 'Resolved'`),
    // The open alert a repeat of one rule for one person folds into (alert-store.ts).
    index('alerts_open_foldable_idx')
      .on(t.kind, t.geofenceId, t.prisonerId, t.deviceId)
      .where(sql`${t.kind} in ('geofence', 'offline') and ${t.status} <> 'Resolved'`),
    // Escalation's sweep (decision 060): Critical alerts nobody has acknowledged yet, by when they were stored.
    index('alerts_open_critical_created_idx')
      .on(t.createdAt)
      .where(sql`${t.alertType} = 'Critical' and ${t.status} = 'New'`),
    // The account's open duress alarm, which another press repeats (decision 100).
    index('alerts_open_duress_idx')
      .on(t.raisedBy)
      .where(sql`${t.kind} = 'duress' and ${t.status} <> 'Resolved'`),
  ],
);

/** Append-only: no route updates or deletes a row. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    adminId: integer('admin_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    /** Place in the hash chain (lib/audit-chain.ts); null only for entries not written by the server. */
    seq: bigint('seq', { mode: 'number' }),
    /** HMAC of this entry's content and the previous entry's hash. */
    hash: text('hash'),
  },
  (t) => [
    index('audit_at_idx').on(t.at),
    index('audit_entity_idx').on(t.entity, t.entityId),
    uniqueIndex('audit_seq_idx').on(t.seq),
  ],
);

/**
 * The audit chain's one row (lib/audit-chain.ts): its newest entry (head), the last entry retention deleted (anchor),
 * and a MAC over both. Locked by every append, so the chain has one order across processes.
 */
export const auditChain = pgTable(
  'audit_chain',
  {
    id: smallint('id').primaryKey(),
    adopted: boolean('adopted').notNull().default(false),
    headSeq: bigint('head_seq', { mode: 'number' }).notNull().default(0),
    headHash: text('head_hash').notNull().default(''),
    anchorSeq: bigint('anchor_seq', { mode: 'number' }).notNull().default(0),
    anchorHash: text('anchor_hash').notNull().default(''),
    mac: text('mac').notNull().default(''),
  },
  (t) => [check('audit_chain_one_row', sql`${t.id} = 1`)],
);

/** The control-room log (/communication): entries of a type (MESSAGE_TYPES), append-only. */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id').references(() => admins.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    type: text('type').$type<MessageType>().notNull().default('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_created_idx').on(t.createdAt),
    index('messages_type_idx').on(t.type, t.id),
    // The text search (`q`): a contains match on any case served by trigrams, not a scan of the whole log.
    index('messages_body_trgm_idx').using('gin', sql`lower(${t.body}) gin_trgm_ops`),
    check('messages_type_check', sql`${t.type} in ('note', 'handover', 'radio_call', 'lockdown', 'incident')`),
  ],
);

/** The prisoners, alerts and incidents a log entry is about (no foreign key: one column names three tables). */
export const messageLinks = pgTable(
  'message_links',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MessageLinkKind>().notNull(),
    targetId: integer('target_id').notNull(),
  },
  (t) => [
    primaryKey({ name: 'message_links_pk', columns: [t.messageId, t.kind, t.targetId] }),
    index('message_links_target_idx').on(t.kind, t.targetId, t.messageId),
    check('message_links_kind_check', sql`${t.kind} in ('prisoner', 'alert', 'incident')`),
  ],
);

/** Who confirmed reading a handover entry, and when; one row per account and entry. */
export const messageReads = pgTable(
  'message_reads',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    adminId: integer('admin_id').references(() => admins.id, { onDelete: 'set null' }),
    readerName: text('reader_name').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('message_reads_message_admin_unique').on(t.messageId, t.adminId),
    index('message_reads_admin_idx').on(t.adminId, t.messageId),
  ],
);

/**
 * Keep-apart pairs (decisions 031 and 032): never in one cell, nor one block when the scope is `block`; their
 * trackers meeting raise a Warning. Ended, never deleted (who, when, why); one active pair per two prisoners.
 */
export const keepApartPairs = pgTable(
  'keep_apart_pairs',
  {
    id: serial('id').primaryKey(),
    prisonerA: integer('prisoner_a')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    prisonerB: integer('prisoner_b')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    scope: text('scope').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: text('ended_by'),
    endReason: text('end_reason'),
    /** Cluster mode (decision 036): the pair is meeting and alerted; set by one process only (compare and set). */
    meeting: boolean('meeting').notNull().default(false),
  },
  (t) => [
    check('keep_apart_pairs_distinct', sql`${t.prisonerA} <> ${t.prisonerB}`),
    index('keep_apart_pairs_a_idx')
      .on(t.prisonerA)
      .where(sql`${t.endedAt} is null`),
    index('keep_apart_pairs_b_idx')
      .on(t.prisonerB)
      .where(sql`${t.endedAt} is null`),
    uniqueIndex('keep_apart_pairs_active_idx')
      .using('btree', sql`least(${t.prisonerA}, ${t.prisonerB})`, sql`greatest(${t.prisonerA}, ${t.prisonerB})`)
      .where(sql`${t.endedAt} is null`),
  ],
);

/**
 * Escorts (decision 035): a prisoner in the care of one officer, within `max_distance_m`, from
 * `from` until `until` (null: until ended). Ended escorts are kept, never deleted.
 */
export const escorts = pgTable(
  'escorts',
  {
    id: serial('id').primaryKey(),
    prisonerId: integer('prisoner_id')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    // Restrict: a staff member with escorts is retired, never deleted with their history (decision 042).
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.staffId, { onDelete: 'restrict' }),
    maxDistanceM: integer('max_distance_m').notNull().default(50),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    until: timestamp('until', { withTimezone: true }),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: text('ended_by'),
    /** Cluster mode (decision 036): the escort has failed and alerted; set by one process only (compare and set). */
    unescorted: boolean('unescorted').notNull().default(false),
    /** Recorded with an officer who wears no tracker: exempts the prisoner from nothing (decision 037). */
    unmonitored: boolean('unmonitored').notNull().default(false),
  },
  (t) => [
    check('escorts_distance', sql`${t.maxDistanceM} between 5 and 5000`),
    index('escorts_active_idx')
      .on(t.prisonerId)
      .where(sql`${t.endedAt} is null`),
  ],
);

/**
 * A change that weakens an alarm, waiting for a second person (decision 041): a geofence update or delete, or the end
 * of a keep-apart pair. `payload` is what will be applied on approval; at most one waits per target.
 */
export const pendingChanges = pgTable(
  'pending_changes',
  {
    id: serial('id').primaryKey(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    targetName: text('target_name').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload'),
    changes: jsonb('changes').$type<string[]>().notNull(),
    reason: text('reason').notNull(),
    requestedByAdminId: integer('requested_by_admin_id').references(() => admins.id, { onDelete: 'set null' }),
    requestedBy: text('requested_by').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decision: text('decision'),
    decidedByAdminId: integer('decided_by_admin_id').references(() => admins.id, { onDelete: 'set null' }),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    /** A weakening of a Critical or Warning zone ends at this time: it is reverted by itself (decision 091). */
    until: timestamp('until', { withTimezone: true }),
    /** What the revert writes back: the geofence as it was before the change. */
    restore: jsonb('restore'),
    revertedAt: timestamp('reverted_at', { withTimezone: true }),
  },
  (t) => [
    check('pending_changes_decision', sql`${t.decision} is null or ${t.decision} in ('approved', 'refused')`),
    uniqueIndex('pending_changes_open_target_idx')
      .on(t.targetType, t.targetId)
      .where(sql`${t.decision} is null`),
    index('pending_changes_requested_at_idx').on(t.requestedAt),
    index('pending_changes_weakened_idx')
      .on(t.until)
      .where(sql`${t.decision} = 'approved' and ${t.until} is not null and ${t.revertedAt} is null`),
  ],
);

/**
 * Who made an account what it is (decision 091): created it, re-enabled it, gave it its role or its password. The
 * two-person rule reads it: such an account cannot approve a change of the one who did it (nor they its) for 7 days.
 */
export const accountGrants = pgTable(
  'account_grants',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    byAdminId: integer('by_admin_id').references(() => admins.id, { onDelete: 'set null' }),
    kind: text('kind').$type<'created' | 'enabled' | 'role' | 'password'>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('account_grants_kind', sql`${t.kind} in ('created', 'enabled', 'role', 'password')`),
    index('account_grants_admin_at_idx').on(t.adminId, t.at),
  ],
);

/**
 * Escalation of an unacknowledged Critical alert (decision 060): one row per alert and channel (the unique key makes
 * it once across a cluster), claimed by a lease (`claim_token`, `claimed_until`) before it is sent. Test messages have
 * no alert.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: serial('id').primaryKey(),
    alertId: integer('alert_id').references(() => alerts.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    test: boolean('test').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    claimToken: text('claim_token'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alert_deliveries_alert_channel_unique').on(t.alertId, t.channel),
    index('alert_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'retrying')`),
    check('alert_deliveries_channel_check', sql`${t.channel} in ('email', 'webhook')`),
    check('alert_deliveries_status_check', sql`${t.status} in ('pending', 'retrying', 'sent', 'failed', 'cancelled')`),
  ],
);

/** Where a block is on the site: a polygon, `[lat, lng]` pairs as geofences store them. */
export const blockAreas = pgTable('block_areas', {
  block: text('block').primaryKey(),
  points: jsonb('points').$type<[number, number][]>().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Roll counts (decision 062): what was expected and where each prisoner's tracker was when the count
 * started (kept as they were then), and what the officer counted. A null block is a count of the whole prison.
 */
export const rollCounts = pgTable(
  'roll_counts',
  {
    id: serial('id').primaryKey(),
    block: text('block'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    startedBy: text('started_by').notNull(),
    expected: integer('expected').notNull(),
    located: integer('located').notNull(),
    blocks: jsonb('blocks').$type<{ block: string; expected: number; located: number }[]>().notNull(),
    lines: jsonb('lines').$type<CountLine[]>().notNull(),
    state: text('state').notNull().default('open'),
    counted: integer('counted'),
    note: text('note'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    submittedBy: text('submitted_by'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: text('closed_by'),
    closeNote: text('close_note'),
    /** Every submit of the count (a recount adds one; the last decides), with the prisoners seen or a typed number. */
    submissions: jsonb('submissions').$type<CountSubmission[]>().notNull().default([]),
    /** The prisoners not seen, each accounted for with a reason (what closes a discrepancy). */
    accounts: jsonb('accounts').$type<CountAccount[]>().notNull().default([]),
  },
  (t) => [
    index('roll_counts_block_started_idx').on(t.block, t.startedAt),
    check('roll_counts_state_check', sql`${t.state} in ('open', 'clear', 'discrepancy', 'closed')`),
  ],
);

/** One Warning per block and scheduled count time: the primary key lets only one process raise it. */
export const countWarnings = pgTable(
  'count_warnings',
  {
    block: text('block').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    alertId: integer('alert_id').references(() => alerts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.block, t.slot], name: 'count_warnings_block_slot_pk' })],
);
/** Fixed indoor readers (decision 067): a tag they see becomes a fix at their position, radius as accuracy. */
export const readers = pgTable('readers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  latitude: doublePrecision('latitude').notNull(),
  longitude: doublePrecision('longitude').notNull(),
  radiusM: real('radius_m').notNull(),
  blockId: text('block_id'),
  cellId: text('cell_id').references(() => cells.cellId, { onDelete: 'set null' }),
  /** sha256 of the reader's secret, as for devices (decision 038). */
  secretHash: text('secret_hash').notNull(),
  /** Written from memory every few seconds, not per message. */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  refusedCount: integer('refused_count').notNull().default(0),
  /** The open "Reader NAME is silent" alert: set once per silence, cleared when the reader reports again. */
  silentAlertId: integer('silent_alert_id').references((): AnyPgColumn => alerts.id, { onDelete: 'set null' }),
  /** How its messages are read (READER_FORMATS): ours, OpenMQTTGateway / Theengs, or a Minew gateway's array. */
  format: text('format').notNull().default('prison'),
  createdAt: createdAt(),
}, (t) => [check('readers_format_check', sql`${t.format} in ('prison', 'openmqttgateway', 'minew')`)]);
/**
 * A prisoner's observation (decision 063): level, interval override, the constant watcher, and the
 * schedule the overdue watcher reads (one indexed range on `due_at` per tick). The alert ids make each alert once.
 */
export const observationLevels = pgTable(
  'observation_levels',
  {
    prisonerId: integer('prisoner_id')
      .primaryKey()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    level: text('level').notNull(),
    /** Null: the level's interval from the configuration. */
    intervalMinutes: integer('interval_minutes'),
    reason: text('reason'),
    setBy: text('set_by').notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull(),
    watcherStaffId: integer('watcher_staff_id').references(() => staff.staffId, { onDelete: 'restrict' }),
    watcherSince: timestamp('watcher_since', { withTimezone: true }),
    lastCheckId: integer('last_check_id'),
    lastCheckAt: timestamp('last_check_at', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** The Warning raised for the current `due_at` (cleared by the next check). */
    warningAlertId: integer('warning_alert_id'),
    /** The Critical raised for the current `due_at` (high and constant only). */
    criticalAlertId: integer('critical_alert_id'),
  },
  (t) => [
    check('observation_levels_level', sql`${t.level} in ('standard', 'enhanced', 'high', 'constant')`),
    check('observation_levels_interval', sql`${t.intervalMinutes} between 1 and 1440`),
    index('observation_levels_due_idx').on(t.dueAt),
  ],
);

/**
 * Append-only: the observation checks, each chained to the one before by `prev_hash` and its own sha256 `hash`, so a
 * row changed or removed afterwards is found by the verify route (decision 063). A correction names the row it corrects.
 */
export const observationChecks = pgTable(
  'observation_checks',
  {
    id: serial('id').primaryKey(),
    prisonerId: integer('prisoner_id')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    observed: text('observed').notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    checkedBy: text('checked_by').notNull(),
    staffId: integer('staff_id').references(() => staff.staffId, { onDelete: 'restrict' }),
    method: text('method').notNull(),
    verifiedByPosition: boolean('verified_by_position').notNull(),
    distanceM: doublePrecision('distance_m'),
    correctsId: integer('corrects_id').references((): AnyPgColumn => observationChecks.id, { onDelete: 'restrict' }),
    level: text('level').notNull(),
    intervalMinutes: integer('interval_minutes').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull().unique(),
  },
  (t) => [
    check('observation_checks_method', sql`${t.method} in ('position', 'control_room', 'no_tracker')`),
    index('observation_checks_prisoner_idx').on(t.prisonerId, t.checkedAt),
  ],
);

/** Append-only: who watches a prisoner on constant observation, and from when. */
export const observationHandovers = pgTable(
  'observation_handovers',
  {
    id: serial('id').primaryKey(),
    prisonerId: integer('prisoner_id')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staff.staffId, { onDelete: 'restrict' }),
    previousStaffId: integer('previous_staff_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    by: text('by').notNull(),
  },
  (t) => [index('observation_handovers_prisoner_idx').on(t.prisonerId, t.at)],
);
/** Controlled movements (decision 064): prisoners sent to a destination geofence by a due time. */
export const movements = pgTable(
  'movements',
  {
    id: serial('id').primaryKey(),
    // No foreign key: a geofence deleted later leaves the movement's record readable (its name is kept here).
    destinationGeofenceId: text('destination_geofence_id').notNull(),
    destinationName: text('destination_name').notNull(),
    dueBy: timestamp('due_by', { withTimezone: true }).notNull(),
    escortStaffId: integer('escort_staff_id').references(() => staff.staffId, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    /** The zones on the way the movement names: they do not alarm for its prisoners while it is in force. */
    viaGeofenceIds: text('via_geofence_ids').array().notNull().default(sql`'{}'`),
    /** Why prisoners are sent to a destination closed at `due_by` (null: it was open). */
    closedReason: text('closed_reason'),
    /** Ended (the prisoners are back) or cancelled: no longer in force. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: text('ended_by'),
    cancelled: boolean('cancelled').notNull().default(false),
  },
  (t) => [index('movements_created_idx').on(t.createdAt)],
);

/** Each prisoner of a movement and how his leg went: one timestamp per condition, set once (the claim of its alert). */
export const movementPrisoners = pgTable(
  'movement_prisoners',
  {
    movementId: integer('movement_id')
      .notNull()
      .references(() => movements.id, { onDelete: 'cascade' }),
    prisonerId: integer('prisoner_id')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'restrict' }),
    /** The geofences he was in at the start; null: no position known then, his first fix after the start decides. */
    originGeofenceIds: text('origin_geofence_ids').array(),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    overdueAt: timestamp('overdue_at', { withTimezone: true }),
    offRouteAt: timestamp('off_route_at', { withTimezone: true }),
    offRouteGeofence: text('off_route_geofence'),
  },
  (t) => [
    primaryKey({ name: 'movement_prisoners_pk', columns: [t.movementId, t.prisonerId] }),
    index('movement_prisoners_open_idx')
      .on(t.prisonerId)
      .where(sql`${t.arrivedAt} is null`),
  ],
);

/** Raw bytes (PostgreSQL bytea): PGlite gives a Uint8Array, node-postgres a Buffer; both read as a Buffer here. */
const bytes = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Site plans (decision 065): the prison's drawing, its bytes in the database so every process of a cluster
 * serves it, and the points that place it on the ground. At most one is the default every map draws.
 */
export const sitePlans = pgTable(
  'site_plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    image: bytes('image').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** SHA-256 of the image: its ETag and its version in the image's address. */
    digest: text('digest').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    points: jsonb('points').$type<{ x: number; y: number; lat: number; lng: number }[]>().notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('site_plans_one_default').on(t.isDefault).where(sql`${t.isDefault}`),
    check('site_plans_content_type_check', sql`${t.contentType} in ('image/png', 'image/jpeg', 'image/svg+xml')`),
  ],
);

/** A prisoner's photo (decision 101): a resized JPEG without metadata, in the database like the site plans' images. */
export const prisonerPhotos = pgTable('prisoner_photos', {
  prisonerId: integer('prisoner_id')
    .primaryKey()
    .references(() => prisoners.prisonerId, { onDelete: 'cascade' }),
  image: bytes('image').notNull(),
  byteSize: integer('byte_size').notNull(),
  /** SHA-256 of the stored image: its ETag and its version in the photo's address. */
  digest: text('digest').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: updatedAt(),
});

/** What an officer must know before acting on a prisoner (decision 101): a risk or medical alert, from and until. */
export const prisonerFlags = pgTable(
  'prisoner_flags',
  {
    id: serial('id').primaryKey(),
    prisonerId: integer('prisoner_id')
      .notNull()
      .references(() => prisoners.prisonerId, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    note: text('note'),
    setBy: text('set_by').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    clearedBy: text('cleared_by'),
    clearReason: text('clear_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('prisoner_flags_prisoner_idx')
      .on(t.prisonerId)
      .where(sql`${t.clearedAt} is null`),
    check('prisoner_flags_kind_check', sql`${t.kind} in ('self_harm', 'escape', 'violence', 'medical')`),
  ],
);
