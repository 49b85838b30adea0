// The page shown for a screen the account's role may not open (decision 053), instead of a screen of refusals.
import { NO_ACCESS_MESSAGE } from '@prison/shared/role-access';
import { Link } from 'react-router';
import { Page } from './page';

export function NoAccess() {
  return (
    <Page title="No access">
      <p role="alert" data-testid="no-access" className="mb-4 text-lg text-slate-800">
        {NO_ACCESS_MESSAGE}
      </p>
      <Link to="/" className="text-brand-700 underline">
        Back to the overview
      </Link>
    </Page>
  );
}
