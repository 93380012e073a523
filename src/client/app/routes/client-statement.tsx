import { useParams } from 'react-router';
import { ClientStatement } from '../../features/statements/components/client-statement.tsx';

export function ClientStatementPage() {
  const id = useParams().id ?? '';
  return <ClientStatement key={id} id={id} />;
}
