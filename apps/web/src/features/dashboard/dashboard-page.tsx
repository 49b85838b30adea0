import { Page } from '../../components/ui/page';

export function DashboardPage() {
  return <Page title="Manage Roles" />;
}
