import { Page } from '../../components/ui/page';

export function LiveMapPage() {
  return <Page title="Live Map" />;
}
