// The shared layout (docs/CLIENT-CONTRACT.md): top bar, page, and for a visitor the footer (a logged-in account works here:
// no footer, decision 105). The toast area is mounted by the providers.
import { useState } from 'react';
import { Link, NavLink, Outlet, useMatch, useNavigate } from 'react-router';
import { clsx } from 'clsx';
import { Menu, X } from 'lucide-react';
import { ROLE_LABELS } from '@prison/shared/role-access';
import { useAuth } from '../lib/auth';
import { may } from '../lib/use-may';
import { productVersionText } from '../lib/product-version';
import { desktopMenu, phoneMenu, type MenuLink } from './menu';
import { NavMore } from './nav-more';
import { Button } from '../components/ui/button';
import { DatabaseOutageBanner } from '../components/ui/service-banner';
import { FeedHealthBanner, FeedHealthIndicator } from '../components/ui/feed-health';
import { WeakenedZoneBanner } from '../components/ui/weakened-zone-banner';
import { HandoverPanel } from '../components/log/handover-panel';
import { AlertWorkflowCriticalSound, SoundBlockedNotice } from '../features/alerts/alert-workflow-sound';
import { useFloatingToasts } from '../lib/toast';
import { CountReminder } from '../features/counts/count-reminder';
import { CriticalAlertBar, OpenAlertCounts } from '../features/alerts/critical-alert-bar';
import { DuressPanel, NeedAssistanceButton } from '../features/duress/need-assistance';

function navClass({ isActive }: { isActive: boolean }) {
  return clsx('rounded px-1.5 py-1 text-sm whitespace-nowrap', isActive ? 'bg-white/15 text-white' : 'text-slate-200 hover:text-white');
}

export function Layout() {
  // Read once: the page was served by this version (decision 059).
  const [version] = useState(productVersionText);
  const { status, name, role, logout } = useAuth();
  // Each role's daily tools first; screens the role can do nothing on are not listed (decision 102).
  const desktop = desktopMenu(role);
  const phone = phoneMenu(role);
  const roleLabel = role ? ROLE_LABELS[role] : null;
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const loggedIn = status === 'authenticated';
  // The live map fits the window: the page never scrolls, the map takes what the bars leave (decision 044). The page
  // scrolls in the toast provider's scroll box (`[data-scroll-root]`, above the toast band, decision 040), so "the
  // window" is that box's height.
  const fitsWindow = useMatch('/live-map') !== null;
  // A phone's menu entry is a 44 px target (decision 030).
  const phoneLink = (link: MenuLink) => (
    <NavLink
      key={link.to}
      to={link.to}
      end={link.to === '/'}
      className={(state) => clsx(navClass(state), 'flex min-h-11 items-center')}
      onClick={() => setMenuOpen(false)}
    >
      {link.label}
    </NavLink>
  );
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
            {/* Signed in, the bar needs the room for Need assistance (decision 100) on a phone and beside the one-line
                desktop menu below 2xl: the logo stays. */}
            <span className={clsx('text-lg', loggedIn && 'hidden sm:inline xl:hidden 2xl:inline')}>Prison Control</span>
          </Link>
          <nav aria-label="Main" className="hidden min-w-0 flex-1 flex-wrap items-center gap-0.5 xl:flex">
            {desktop.top.map((link) => (
              <NavLink key={link.to} to={link.to} end={link.to === '/'} className={navClass}>
                {link.label}
              </NavLink>
            ))}
            {loggedIn && <NavMore sections={desktop.more} />}
          </nav>
          <div className="ml-auto flex items-center gap-2 2xl:gap-3">
            {loggedIn ? (
              <>
                <NeedAssistanceButton />
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
            {phone.daily.length > 0 && <p className="px-2 pt-1 text-xs font-semibold text-slate-300 uppercase">Daily tools</p>}
            {phone.daily.map(phoneLink)}
            {phone.daily.length > 0 && phone.others.length > 0 && (
              <p className="border-t border-white/10 px-2 pt-2 text-xs font-semibold text-slate-300 uppercase">All screens</p>
            )}
            {phone.others.map(phoneLink)}
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
      {loggedIn && <DuressPanel />}
      </div>
      <DatabaseOutageBanner />
      {loggedIn && <FeedHealthBanner />}
      {loggedIn && <WeakenedZoneBanner />}
      {loggedIn && <HandoverPanel />}
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
