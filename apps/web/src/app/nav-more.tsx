// The desktop menu's "More" (the later screens): the prison's day, investigations and the site, grouped in one
// dropdown so the top bar keeps to one line at 1440 px, the button marked when one of them is open. The dropdown's code
// (nav-more-menu.tsx) loads at the first press: the first screen does not carry the menu library.
import { forwardRef, lazy, Suspense, useState, type ComponentPropsWithoutRef } from 'react';
import { ChevronDown } from 'lucide-react';
import { useLocation } from 'react-router';
import { clsx } from 'clsx';

const NavMoreMenu = lazy(async () => ({ default: (await import('./nav-more-menu')).NavMoreMenu }));

/** A group of "More" (the menu's sections, menu.ts). */
export interface NavSection {
  title: string;
  links: { to: string; label: string }[];
}

type MoreButtonProps = ComponentPropsWithoutRef<'button'> & { active: boolean };

/** The "More" button, plain before the first press and the dropdown's trigger after. */
export const MoreButton = forwardRef<HTMLButtonElement, MoreButtonProps>(function MoreButton({ active, ...props }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      aria-haspopup="menu"
      {...props}
      className={clsx(
        'flex items-center gap-0.5 rounded px-1.5 py-1 text-sm whitespace-nowrap',
        active ? 'bg-white/15 text-white' : 'text-slate-200 hover:text-white',
      )}
    >
      More
      <ChevronDown className="h-3.5 w-3.5" aria-hidden="true" />
    </button>
  );
});

export function NavMore({ sections }: { sections: NavSection[] }) {
  const { pathname } = useLocation();
  const [pressed, setPressed] = useState(false);
  const shown = sections.filter((section) => section.links.length > 0);
  if (shown.length === 0) return null;
  const active = shown.some((section) => section.links.some((link) => pathname === link.to || pathname.startsWith(`${link.to}/`)));
  const plain = <MoreButton active={active} aria-expanded={false} onClick={() => setPressed(true)} />;
  if (!pressed) return plain;
  return (
    <Suspense fallback={plain}>
      <NavMoreMenu shown={shown} active={active} />
    </Suspense>
  );
}
