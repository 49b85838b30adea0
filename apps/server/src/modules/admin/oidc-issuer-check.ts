// At start, with single sign-on on: the provider OIDC_ISSUER names must answer its discovery, or the start is refused
// naming OIDC_ISSUER (status 2, decision 096), rather than every login failing later with "fetch failed" (decision 104).
import { StartRefusal } from '../../lib/start-refusal';
import { identityProviderOf, unreachableWhy } from './oidc-identity-provider';

export async function checkOidcIssuer(config: Parameters<typeof identityProviderOf>[0]): Promise<void> {
  const provider = identityProviderOf(config);
  if (!provider) return;
  try {
    await provider.discover();
  } catch (error) {
    throw new StartRefusal(
      `OIDC_ISSUER ${config.OIDC_ISSUER} does not answer its discovery (${unreachableWhy(error)}): start the identity ` +
        'provider or correct OIDC_ISSUER (unset it to turn single sign-on off); nothing was changed',
    );
  }
}
