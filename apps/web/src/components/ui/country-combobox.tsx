// A searchable country dropdown (docs/CLIENT-CONTRACT.md): the menu is at most 200px high and the chosen country's NAME is
// the value. The list comes from a maintained package through @prison/shared.
import { useId, useState } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { Command } from 'cmdk';
import { ChevronsUpDown, Check } from 'lucide-react';
import { clsx } from 'clsx';
import { COUNTRIES } from '@prison/shared/countries';

export interface CountryComboboxProps {
  label: string;
  value: string | null | undefined;
  onChange(name: string | null): void;
  error?: string;
  placeholder?: string;
}

export function CountryCombobox({
  label,
  value,
  onChange,
  error,
  placeholder = 'Select a country',
}: CountryComboboxProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild>
          <button
            id={id}
            type="button"
            role="combobox"
            aria-expanded={open}
            aria-invalid={error ? true : undefined}
            className={clsx(
              'flex w-full items-center justify-between rounded-md border bg-white px-3 py-2 text-left text-sm shadow-sm focus:border-brand-700 focus:outline-none',
              error ? 'border-red-500' : 'border-slate-300',
              value ? 'text-slate-900' : 'text-slate-500',
            )}
          >
            <span className="truncate">{value || placeholder}</span>
            <ChevronsUpDown className="h-4 w-4 shrink-0 opacity-60" aria-hidden="true" />
          </button>
        </Popover.Trigger>
        {/* Not portalled: inside a modal the menu must stay within the dialog's focus trap and scroll lock. */}
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-[1100] w-[var(--radix-popover-trigger-width)] rounded-md border border-slate-200 bg-white shadow-lg"
        >
          <Command label={`${label} options`}>
            <Command.Input
              autoFocus
              placeholder="Search country..."
              className="w-full border-b border-slate-200 px-3 py-2 text-sm outline-none"
            />
            <Command.List className="max-h-[200px] overflow-y-auto p-1" data-testid="country-menu">
              <Command.Empty className="px-3 py-2 text-sm text-slate-500">No country found.</Command.Empty>
              {value && (
                <Command.Item
                  value="(none)"
                  onSelect={() => {
                    onChange(null);
                    setOpen(false);
                  }}
                  className="cursor-pointer rounded px-3 py-1.5 text-sm text-slate-500 data-[selected=true]:bg-slate-100"
                >
                  Clear selection
                </Command.Item>
              )}
              {COUNTRIES.map((country) => (
                <Command.Item
                  key={country.code}
                  value={country.name}
                  keywords={[country.code]}
                  onSelect={() => {
                    onChange(country.name);
                    setOpen(false);
                  }}
                  className="flex cursor-pointer items-center justify-between rounded px-3 py-1.5 text-sm data-[selected=true]:bg-slate-100"
                >
                  {country.name}
                  {value === country.name && <Check className="h-4 w-4" aria-hidden="true" />}
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        </Popover.Content>
      </Popover.Root>
      {error && <p className="text-xs text-red-700">{error}</p>}
    </div>
  );
}
