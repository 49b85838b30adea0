// An account's role (a select of the roles by their labels) and caseload (a checkbox per block; none ticked means
// every block, except for a wing officer, who needs one: decision 093), for creating and editing accounts on /profile
// (decision 053).
import { useId } from 'react';
import { NEEDS_BLOCKS_MESSAGE, ROLES, ROLE_LABELS, roleNeedsBlocks, type Role } from '@prison/shared/roles';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useBlockNames } from '../../lib/block-names';

export interface AccountAccess {
  role: Role | '';
  blocks: string[];
}

/** "Every block", or the caseload's block names. */
export function blocksText(blocks: readonly string[]): string {
  return blocks.length === 0 ? 'Every block' : blocks.join(', ');
}

/** What the server would refuse in the blocks (a wing officer with none), in its words; undefined when nothing. */
export function blocksProblem(access: AccountAccess): string | undefined {
  return access.role && roleNeedsBlocks(access.role) && access.blocks.length === 0 ? `blocks: ${NEEDS_BLOCKS_MESSAGE}` : undefined;
}

export function AccountAccessFields({
  value,
  onChange,
  roleError,
  blocksError,
}: {
  value: AccountAccess;
  onChange(value: AccountAccess): void;
  roleError?: string;
  blocksError?: string;
}) {
  const id = useId();
  const blocks = useBlockNames();
  // A block no longer in the list stays shown while ticked, so it can be unticked.
  const names = [...new Set([...(blocks.data ?? []), ...value.blocks])];
  const toggle = (block: string, on: boolean) =>
    onChange({ ...value, blocks: on ? [...value.blocks, block] : value.blocks.filter((b) => b !== block) });

  return (
    <>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-role`} className="text-sm font-medium text-slate-700">
          Role
        </label>
        <select
          id={`${id}-role`}
          value={value.role}
          aria-invalid={roleError ? true : undefined}
          aria-describedby={roleError ? `${id}-role-error` : undefined}
          onChange={(event) => onChange({ ...value, role: event.target.value as Role | '' })}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-700 focus:outline-none"
        >
          <option value="">Choose a role</option>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        {roleError && (
          <p id={`${id}-role-error`} className="text-sm text-red-700">
            {roleError}
          </p>
        )}
      </div>
      <fieldset
        className="flex flex-col gap-1"
        aria-describedby={blocksError ? `${id}-blocks-hint ${id}-blocks-error` : `${id}-blocks-hint`}
      >
        <legend className="text-sm font-medium text-slate-700">Blocks</legend>
        <p id={`${id}-blocks-hint`} className="text-xs text-slate-600">
          The prisoners this account sees. None ticked: every block.
        </p>
        {blocks.isPending ? (
          <Loading text="Loading blocks..." />
        ) : blocks.isError ? (
          <ErrorText>{errorMessage(blocks.error, 'Failed to fetch the blocks.')}</ErrorText>
        ) : (
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {names.map((block) => (
              <label key={block} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={value.blocks.includes(block)}
                  onChange={(event) => toggle(block, event.target.checked)}
                />
                Block {block}
              </label>
            ))}
          </div>
        )}
        {blocksError && (
          <p id={`${id}-blocks-error`} className="text-sm text-red-700">
            {blocksError}
          </p>
        )}
      </fieldset>
    </>
  );
}
