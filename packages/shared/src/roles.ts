// Staff roles and what each may do: the one table the server enforces and the screens follow.
// A route declares the action it needs next to its schema (`config: { access: 'records.write' }`); a socket event
// declares it the same way. A role's caseload (`blocks`) narrows which prisoners it sees, not what it may do.
import { z } from 'zod';
import { nameText } from './text';
import { ROLES } from './role-access';

export * from './role-access';

export const role = z.enum(ROLES);

/** Block names of a caseload; empty means every block. */
export const caseloadBlocks = z
  .array(
    // Checked like a cell's block name (no control, invisible or bidi characters), as the names it must match.
    nameText(50).min(1, 'blocks must not hold an empty name'),
  )
  .max(200, 'blocks may list at most 200 blocks');
