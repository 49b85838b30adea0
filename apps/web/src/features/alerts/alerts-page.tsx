import { Page } from '../../components/ui/page';

export function AlertsPage() {
  return <Page title="Alerts" />;
}
