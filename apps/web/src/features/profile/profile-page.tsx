// Profile (/profile): the admin's name, password change, active sessions, and the admins of the system.
import { useState, type ReactNode } from 'react';
import { productVersionText } from '../../lib/product-version';
import { AlertWorkflowSoundToggle } from '../alerts';
import { Page } from '../../components/ui/page';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useMay } from '../../lib/use-may';
import { AdminsSection } from './admins-section';
import { EscalationSection } from './escalation-section';
import { useProfile } from './api';
import { PasswordForm } from './password-form';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

export function ProfilePage() {
  const { name, passwordChangeRequired, totpEnrolmentRequired } = useAuth();
  const [version] = useState(productVersionText);
  const profile = useProfile();
  const mayManageAccounts = useMay('accounts.manage');
  // The delivery log: 'audit.read' or 'settings.write' (decision 060).
  const mayReadAudit = useMay('audit.read');
  const mayChangeSettings = useMay('settings.write');
  const maySeeEscalation = mayReadAudit || mayChangeSettings;
  // While a step is required the server refuses everything else, so only that step's section is shown.
  const restricted = passwordChangeRequired || totpEnrolmentRequired;
  return (
    <Page title="Profile">
      <p className="mb-4 text-lg" data-testid="profile-name">
        {name}
      </p>
      {/* A logged-in account has no footer (decision 105): the running version (decision 059) is named here. */}
      {version && (
        <p className="-mt-3 mb-4 text-xs text-slate-600" data-testid="app-version">
          Version {version}
        </p>
      )}
      {!restricted && (
        <div className="mb-4">
          <AlertWorkflowSoundToggle />
        </div>
      )}
      {restricted && (
        <p
          role="status"
          data-testid="account-action"
          className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          {passwordChangeRequired
            ? 'Choose a new password before going on: this one was set by someone else, or no longer meets the password rule.'
            : 'Two-factor login is required. Set it up below before going on.'}
        </p>
      )}
      <Section title="Account">
        {profile.isPending ? (
          <Loading />
        ) : profile.isError ? (
          <ErrorText>{errorMessage(profile.error, 'Failed to fetch the profile.')}</ErrorText>
        ) : (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-600">Name</dt>
            <dd>{profile.data.name}</dd>
            <dt className="text-slate-600">Username</dt>
            <dd>{profile.data.username}</dd>
            <dt className="text-slate-600">Admin since</dt>
            <dd>
              {new Date(profile.data.created_at).toLocaleDateString('en-GB', {
                day: 'numeric',
                month: 'long',
                year: 'numeric',
              })}
            </dd>
          </dl>
        )}
      </Section>
      {/* Conditional siblings keep their places, so the two-factor section keeps its state when a step is done. */}
      {!(restricted && !passwordChangeRequired) && (
        <Section title="Change password">
          <PasswordForm />
        </Section>
      )}
      {!passwordChangeRequired && (
        <Section title="Two-factor login">
          <TwoFactorSection />
        </Section>
      )}
      {!restricted && (
        <Section title="Active sessions">
          <SessionsSection />
        </Section>
      )}
      {/* The accounts: for a role that may manage them only (decision 053). */}
      {!restricted && mayManageAccounts && (
        <Section title="Accounts">
          <AdminsSection />
        </Section>
      )}
      {!restricted && maySeeEscalation && (
        <Section title="Alert escalation">
          <EscalationSection />
        </Section>
      )}
    </Page>
  );
}
