// The management screen (docs/CLIENT-CONTRACT.md): Prisoners, Police and Guards tabs with count badges.
import * as Tabs from '@radix-ui/react-tabs';
import { useSearchParams } from 'react-router';
import { Page } from '../../components/ui/page';
import { CountBadge } from '../../components/ui/status-badge';
import { usePrisonerCount, useStaffCount } from './api';
import { PrisonersTab } from './prisoners-tab';
import { StaffTab } from './staff-tab';

const tabs = ['prisoners', 'police', 'guards'] as const;
type Tab = (typeof tabs)[number];

const triggerClass =
  'flex items-center border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-brand-700 data-[state=active]:text-brand-800';

export function DashboardPage() {
  // The open tab lives in the URL, so a reload or the back button keeps it.
  const [params, setParams] = useSearchParams();
  const tab: Tab = tabs.includes(params.get('tab') as Tab) ? (params.get('tab') as Tab) : 'prisoners';
  const prisoners = usePrisonerCount();
  const police = useStaffCount('Police');
  const guards = useStaffCount('Guard');

  return (
    <Page title="Manage Roles">
      <Tabs.Root value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })}>
        <Tabs.List aria-label="Records" className="mb-4 flex gap-1 border-b border-slate-200">
          <Tabs.Trigger value="prisoners" className={triggerClass}>
            Prisoners
            <CountBadge count={prisoners.data} />
          </Tabs.Trigger>
          <Tabs.Trigger value="police" className={triggerClass}>
            Police
            <CountBadge count={police.data} />
          </Tabs.Trigger>
          <Tabs.Trigger value="guards" className={triggerClass}>
            Guards
            <CountBadge count={guards.data} />
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="prisoners">
          <PrisonersTab />
        </Tabs.Content>
        <Tabs.Content value="police">
          <StaffTab role="Police" />
        </Tabs.Content>
        <Tabs.Content value="guards">
          <StaffTab role="Guard" />
        </Tabs.Content>
      </Tabs.Root>
    </Page>
  );
}
