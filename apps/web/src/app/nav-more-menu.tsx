// The open "More" menu (nav-more.tsx): one Radix dropdown, keyboard accessible, open as it first mounts (the first
// press on the plain button loaded it).
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { NavLink } from 'react-router';
import { clsx } from 'clsx';
import { MoreButton, type NavSection } from './nav-more';

export function NavMoreMenu({ shown, active }: { shown: NavSection[]; active: boolean }) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen>
      <DropdownMenu.Trigger asChild>
        <MoreButton active={active} />
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
