// The shared layout (SPEC.md section 2): top bar, page, and for a visitor the footer (a logged-in account works here:
// no footer, decision 105). The toast area is mounted by the providers.
import { useState } from 'react';
import { Link, NavLink, Outlet, useMatch, useNavigate } from 'react-router';
import { clsx } from 'clsx';
import { Menu, X } from 'lucide-react';
import { ROLE_LABELS } from '@prison/shared';
import { useAuth } from '../lib/auth';
import { productVersionText } from '../lib/product-version';
import { may } from '../lib/use-may';
import { NavMore, type NavSection } from './nav-more';
import { screenAction } from './route-access';
import { Button } from '../components/ui/button';
import { DatabaseOutageBanner } from '../components/ui/service-banner';
import { FeedHealthBanner, FeedHealthIndicator } from '../components/ui/feed-health';
import { WeakenedZoneBanner } from '../components/ui/weakened-zone-banner';
import { AlertWorkflowCriticalSound, SoundBlockedNotice } from '../features/alerts/alert-workflow-sound';
import { useFloatingToasts } from '../lib/toast';
import { CountReminder } from '../features/counts/count-reminder';
import { CriticalAlertBar, OpenAlertCounts } from '../features/alerts/critical-alert-bar';

const desktopLinks = [
  { to: '/', label: 'Home' },
  { to: '/dashboard', label: 'Manage Roles' },
  { to: '/live-map', label: 'Live Map' },
  { to: '/location-history', label: 'Location History' },
  { to: '/allAlerts', label: 'Alerts and Notifications' },
  { to: '/cell-assign', label: 'Cells' },
  { to: '/communication', label: 'Communication' },
  { to: '/audit', label: 'Audit' },
  { to: '/profile', label: 'Profile' },
];

/** The screens of issues 24-26 under the desktop menu's "More" (the mobile menu lists them all). */
const desktopMore: NavSection[] = [
  {
    title: "The prison's day",
    links: [
      { to: '/counts', label: 'Counts' },
      { to: '/observations', label: 'Observation checks' },
      { to: '/movements', label: 'Movements' },
    ],
  },
  {
    title: 'Investigations',
    links: [
      { to: '/investigations/near', label: 'Who was near' },
      { to: '/replay', label: 'Replay' },
      { to: '/incidents', label: 'Incidents' },
    ],
  },
  {
    title: 'Site',
    links: [
      { to: '/readers', label: 'Readers' },
      { to: '/site-plan', label: 'Site plan' },
    ],
  },
];

const mobileLinks = [
  { to: '/', label: 'Home' },
  { to: '/dashboard', label: 'Manage Roles' },
  { to: '/live-map', label: 'Live Map' },
  { to: '/location-history', label: 'Location History' },
  { to: '/investigations/near', label: 'Who was near' },
  { to: '/replay', label: 'Replay' },
  { to: '/incidents', label: 'Incidents' },
  { to: '/alerts', label: 'Alerts and Notifications' },
  { to: '/movements', label: 'Movements' },
  { to: '/cell-assign', label: 'Cells' },
  { to: '/counts', label: 'Counts' },
  { to: '/observations', label: 'Observation checks' },
  { to: '/communication', label: 'Communication' },
  { to: '/readers', label: 'Readers' },
  { to: '/audit', label: 'Audit' },
  { to: '/site-plan', label: 'Site plan' },
  { to: '/profile', label: 'Profile' },
];

/** The menu shows only the screens the role may open (decision 053). */
function mayOpen(role: ReturnType<typeof useAuth>['role'], links: { to: string; label: string }[]) {
  return links.filter((link) => {
    const action = screenAction(link.to);
    return !action || may(role, action);
  });
}

function useVisibleLinks(links: { to: string; label: string }[]) {
  return mayOpen(useAuth().role, links);
}

function useVisibleSections(sections: NavSection[]): NavSection[] {
  const { role } = useAuth();
  return sections.map((section) => ({ ...section, links: mayOpen(role, section.links) }));
}

function navClass({ isActive }: { isActive: boolean }) {
  return clsx('rounded px-1.5 py-1 text-sm whitespace-nowrap', isActive ? 'bg-white/15 text-white' : 'text-slate-200 hover:text-white');
}

export function Layout() {
  // Read once: the page was served by this version (decision 059).
  const [version] = useState(productVersionText);
  const { status, name, role, logout } = useAuth();
  const visibleDesktopLinks = useVisibleLinks(desktopLinks);
  const visibleMobileLinks = useVisibleLinks(mobileLinks);
  const visibleMore = useVisibleSections(desktopMore);
  const roleLabel = role ? ROLE_LABELS[role] : null;
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const loggedIn = status === 'authenticated';
  // The live map fits the window: the page never scrolls, the map takes what the bars leave (decision 044). The page
  // scrolls in the toast provider's scroll box (`[data-scroll-root]`, above the toast band, decision 040), so "the
  // window" is that box's height.
  const fitsWindow = useMatch('/live-map') !== null;
  // There the toasts float over the map's corner instead of taking its rows (decision 105).
  useFloatingToasts(fitsWindow);
  const mayWorkAlerts = may(role, 'alerts.work');

  return (
    <div className={clsx('flex flex-col', fitsWindow ? 'h-full overflow-hidden' : 'min-h-full')}>
      {loggedIn && <AlertWorkflowCriticalSound />}
      {loggedIn && <CountReminder />}
      {/* The top bar and the Critical bar stay in view on every screen (decision 044). */}
      <div className="sticky top-0 z-[1000] shrink-0 print:hidden" data-testid="sticky-bars">
      <header className="bg-brand-900 text-white shadow">
        {/* From xl the whole menu is one line beside the name and role (the accessibility spec measures it at 1440
            px): tighter gaps below 2xl, and a long name is cut short (its full text in the title). */}
        <div className="mx-auto flex max-w-screen-2xl items-center gap-3 px-4 py-3 2xl:gap-4">
          <Link to="/" className="flex items-center gap-2 font-semibold" aria-label="Home">
            <img src="/logo.svg" alt="" className="h-8 w-8" />
            <span className="text-lg">Prison Control</span>
          </Link>
          <nav aria-label="Main" className="hidden min-w-0 flex-1 flex-wrap items-center gap-0.5 xl:flex">
            {visibleDesktopLinks.map((link) => (
              <NavLink key={link.to} to={link.to} end={link.to === '/'} className={navClass}>
                {link.label}
              </NavLink>
            ))}
            {loggedIn && <NavMore sections={visibleMore} />}
          </nav>
          <div className="ml-auto flex items-center gap-2 2xl:gap-3">
            {loggedIn ? (
              <>
                <FeedHealthIndicator />
                <SoundBlockedNotice />
                <OpenAlertCounts />
                <Link
                  to="/profile"
                  title={name ?? undefined}
                  className="hidden max-w-40 truncate text-sm text-slate-100 hover:underline sm:inline"
                  data-testid="admin-name"
                >
                  {name}
                </Link>
                {roleLabel && (
                  <span
                    className="hidden rounded bg-white/15 px-2 py-0.5 text-xs whitespace-nowrap text-slate-100 md:inline"
                    data-testid="admin-role"
                  >
                    {roleLabel}
                  </span>
                )}
                <Button variant="secondary" size="sm" onClick={() => void logout()}>
                  Logout
                </Button>
              </>
            ) : (
              status === 'unauthenticated' && (
                <Button variant="secondary" size="sm" onClick={() => navigate('/login')}>
                  Login
                </Button>
              )
            )}
            <button
              type="button"
              className="rounded p-1 xl:hidden"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X /> : <Menu />}
            </button>
          </div>
        </div>
        {menuOpen && (
          <nav id="mobile-menu" aria-label="Mobile" className="flex flex-col gap-1 border-t border-white/10 px-4 py-2 xl:hidden">
            {visibleMobileLinks.map((link) => (
              <NavLink key={link.to} to={link.to} end={link.to === '/'} className={navClass} onClick={() => setMenuOpen(false)}>
                {link.label}
              </NavLink>
            ))}
            {loggedIn && <span className="px-2 py-1 text-sm text-slate-300 sm:hidden">{name}</span>}
            {loggedIn && roleLabel && (
              <span className="px-2 py-1 text-sm text-slate-300 md:hidden" data-testid="admin-role-menu">
                {roleLabel}
              </span>
            )}
          </nav>
        )}
      </header>
      {/* Only for a role that can act on one (decision 105): an auditor or a records clerk reads the top bar's counts. */}
      {loggedIn && mayWorkAlerts && <CriticalAlertBar />}
      </div>
      <DatabaseOutageBanner />
      {loggedIn && <FeedHealthBanner />}
      {loggedIn && <WeakenedZoneBanner />}
      <main className={clsx('flex flex-1 flex-col', fitsWindow && 'min-h-0')}>
        <Outlet />
      </main>
      {status === 'unauthenticated' && (
      <footer className="border-t border-slate-200 bg-white print:hidden">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm text-slate-600">
          <p>© 2024 Prison Control. All rights reserved.</p>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <a href="#privacy" className="hover:underline">
              Privacy Policy
            </a>
            <a href="#terms" className="hover:underline">
              Terms of Service
            </a>
            {version && (
              <span className="text-xs text-slate-600" data-testid="app-version">
                Version {version}
              </span>
            )}
          </div>
        </div>
      </footer>
      )}
    </div>
  );
}
