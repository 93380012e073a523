import { useParams } from 'react-router';
import { ClientDetails } from '../../features/clients/components/client-details.tsx';

export function ClientDetailsPage() {
  const id = useParams().id ?? '';
  return <ClientDetails key={id} id={id} />;
}
