import { Page } from '../../components/ui/page';

export function CellAssignPage() {
  return <Page title="Assign cells" />;
}
