// Value lists shared by server validation and web forms (docs/CLIENT-CONTRACT.md).
export const PRISONER_STATUSES = ['On Trial', 'Incarcerated', 'Transferred', 'Released'] as const;
export type PrisonerStatus = (typeof PRISONER_STATUSES)[number];
/** Statuses that occupy a place in a cell (docs/CLIENT-CONTRACT.md). */
export const OCCUPYING_STATUSES: readonly PrisonerStatus[] = ['On Trial', 'Incarcerated'];

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export type Gender = (typeof GENDERS)[number];

export const STAFF_ROLES = ['Police', 'Guard'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const DEPARTMENTS = ['Patrol', 'CID', 'SWAT', 'Forensics', 'Homicide', 'Narcotics'] as const;
export type Department = (typeof DEPARTMENTS)[number];

/** The guard filter's "role" reads a guard's rank (docs/CLIENT-CONTRACT.md). */
export const GUARD_RANKS = ['Security', 'Supervisor'] as const;

export const SECURITY_LEVELS = ['High', 'Medium', 'Low'] as const;
export type SecurityLevel = (typeof SECURITY_LEVELS)[number];

export const ALERT_TYPES = ['Informational', 'Warning', 'Critical'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

/**
 * The live event's levels (`showAlert.alert_type`), lowercase as docs/CLIENT-CONTRACT.md writes them and the spec's client
 * compares them. Stored alerts and REST answers keep the capitalised type (docs/CLIENT-CONTRACT.md).
 */
export const ALERT_LEVELS = ['informational', 'warning', 'critical'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

export const alertLevelOf = (type: AlertType): AlertLevel => type.toLowerCase() as AlertLevel;
export const alertTypeOfLevel = (level: AlertLevel): AlertType => ALERT_TYPES[ALERT_LEVELS.indexOf(level)]!;

export const ALERT_STATUSES = ['New', 'Acknowledged', 'Resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const GEOFENCE_SHAPES = ['Circle', 'Polygon', 'Rectangle'] as const;
export type GeofenceShape = (typeof GEOFENCE_SHAPES)[number];

export const GEOFENCE_TYPES = ['Positive', 'Negative'] as const;
export type GeofenceType = (typeof GEOFENCE_TYPES)[number];

export const API_PREFIX = '/api/v1';
/**
 * The server's httpOnly session cookie (docs/CLIENT-CONTRACT.md, decision 016), named as in the system the spec was written
 * from. Not `auth-cookie`: that name belongs to the spec's client, which writes its own readable marker there.
 */
export const AUTH_COOKIE = 'auth-token';
/** The spec's client-side marker cookie: the server neither sets nor reads it. */
export const CLIENT_MARKER_COOKIE = 'auth-cookie';
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
