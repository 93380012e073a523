import { AccessTokens } from '../../features/tokens/components/access-tokens.tsx';

export function AccountTokensPage() {
  return <AccessTokens />;
}
