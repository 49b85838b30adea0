import { Page } from '../../components/ui/page';

export function CommunicationPage() {
  return <Page title="Control-room log" />;
}
