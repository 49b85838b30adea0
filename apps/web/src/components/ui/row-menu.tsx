// A per-row actions menu (Radix dropdown): keyboard accessible, and opening one closes any other.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreVertical } from 'lucide-react';
import { clsx } from 'clsx';

export interface RowMenuAction {
  label: string;
  onSelect(): void;
  danger?: boolean;
}

/** No actions (the role may take none here): no menu at all. */
export function RowMenu({ label, actions }: { label: string; actions: RowMenuAction[] }) {
  if (actions.length === 0) return null;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          aria-label={label}
          className="rounded p-1.5 text-slate-600 hover:bg-slate-100 hover:text-slate-900 data-[state=open]:bg-slate-200"
        >
          <MoreVertical className="h-4 w-4" aria-hidden="true" />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-[900] min-w-36 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          {actions.map((action) => (
            <DropdownMenu.Item
              key={action.label}
              onSelect={action.onSelect}
              className={clsx(
                'cursor-pointer rounded px-3 py-1.5 text-sm outline-none select-none data-[highlighted]:bg-slate-100',
                action.danger ? 'text-red-700' : 'text-slate-800',
              )}
            >
              {action.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
