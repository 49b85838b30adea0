// The tracked prisoners list's order (decision 044): by severity, the worse of the open alert and the open geofence
// violation (Critical, Warning, Informational), then the rest, online before offline.
import { severityRank, worseLevel } from '@prison/shared/alert-severity';
import type { AlertType } from '@prison/shared/constants';

export interface RankedRow {
  alertLevel: AlertType | null;
  violationLevel: AlertType | null;
  online: boolean;
}

function rank(row: RankedRow): number {
  const level = worseLevel(row.alertLevel, row.violationLevel);
  return level ? severityRank(level) : severityRank(null) + (row.online ? 0 : 1);
}

/** A comparator; ties are left to the caller (by name). */
export function compareTrackedRows(a: RankedRow, b: RankedRow): number {
  return rank(a) - rank(b);
}
