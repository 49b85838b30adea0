import { Page } from '../../components/ui/page';

export function AuditPage() {
  return <Page title="Audit trail" />;
}
