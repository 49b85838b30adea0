// Profile (/profile): the admin's name, password change, active sessions, and the admins of the system.
import type { ReactNode } from 'react';
import { Page } from '../../components/ui/page';
import { ErrorText, Loading } from '../../components/ui/status';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { AdminsSection } from './admins-section';
import { useProfile } from './api';
import { PasswordForm } from './password-form';
import { SessionsSection } from './sessions-section';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

export function ProfilePage() {
  const { name } = useAuth();
  const profile = useProfile();
  return (
    <Page title="Profile">
      <p className="mb-4 text-lg" data-testid="profile-name">
        {name}
      </p>
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
      <Section title="Change password">
        <PasswordForm />
      </Section>
      <Section title="Active sessions">
        <SessionsSection />
      </Section>
      <Section title="Admins">
        <AdminsSection />
      </Section>
    </Page>
  );
}
