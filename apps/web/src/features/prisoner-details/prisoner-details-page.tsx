import { useParams } from 'react-router';
import { Page } from '../../components/ui/page';

export function PrisonerDetailsPage() {
  const { prisonerId } = useParams();
  return <Page title={`Prisoner ${prisonerId ?? ''}`} />;
}
