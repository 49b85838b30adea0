import { Page } from '../../components/ui/page';
import { useAuth } from '../../lib/auth';

export function ProfilePage() {
  const { name } = useAuth();
  return (
    <Page title="Profile">
      <p className="text-lg">{name}</p>
    </Page>
  );
}
