// The desktop menu's "More" (the later screens): the prison's day, investigations and the site, grouped in one Radix
// dropdown so the top bar keeps to one line at 1440 px; keyboard accessible, the trigger marked when one of them is open.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown } from 'lucide-react';
import { NavLink, useLocation } from 'react-router';
import { clsx } from 'clsx';

/** A group of "More" (the menu's sections, menu.ts). */
export interface NavSection {
  title: string;
  links: { to: string; label: string }[];
}

export function NavMore({ sections }: { sections: NavSection[] }) {
  const { pathname } = useLocation();
  const shown = sections.filter((section) => section.links.length > 0);
  if (shown.length === 0) return null;
  const active = shown.some((section) => section.links.some((link) => pathname === link.to || pathname.startsWith(`${link.to}/`)));
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          className={clsx(
            'flex items-center gap-0.5 rounded px-1.5 py-1 text-sm whitespace-nowrap',
            active ? 'bg-white/15 text-white' : 'text-slate-200 hover:text-white',
          )}
        >
          More
          <ChevronDown className="h-3.5 w-3.5" aria-hidden="true" />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="start" sideOffset={6} className="z-[1100] min-w-48 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
          {shown.map((section) => (
            <DropdownMenu.Group key={section.title}>
              <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-semibold text-slate-600 uppercase">{section.title}</DropdownMenu.Label>
              {section.links.map((link) => (
                <DropdownMenu.Item key={link.to} asChild>
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      clsx(
                        'block cursor-pointer rounded px-3 py-1.5 text-sm text-slate-800 outline-none select-none data-[highlighted]:bg-slate-100',
                        isActive && 'font-semibold',
                      )
                    }
                  >
                    {link.label}
                  </NavLink>
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Group>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
