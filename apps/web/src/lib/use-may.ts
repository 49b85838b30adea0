// What the signed-in account may do, from the shared table of roles and actions (packages/shared/src/roles.ts): the
// one question every screen asks before showing a control. No component names a role (decision 053).
import { roleMay, type Action, type Role } from '@prison/shared/role-access';
import { useAuth } from './auth';

/** Whether a role may take an action; no role yet (the session still loading) may take none. */
export function may(role: Role | null, action: Action): boolean {
  return role !== null && roleMay(role, action);
}

/** Whether the signed-in account may take `action`: show its menu entry, button or form only when true. */
export function useMay(action: Action): boolean {
  return may(useAuth().role, action);
}
