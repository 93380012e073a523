import { TokenList } from '../../features/tokens/components/token-list.tsx';

export function AccountTokensPage() {
  return <TokenList />;
}
