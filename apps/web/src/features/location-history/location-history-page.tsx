import { Page } from '../../components/ui/page';

export function LocationHistoryPage() {
  return <Page title="Location History" />;
}
