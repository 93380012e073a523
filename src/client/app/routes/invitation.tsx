import { useParams } from 'react-router';
import { InvitationPage as Invitation } from '../../features/books/components/invitation-page.tsx';

/** /invitation/:token, the link an owner passes on: open to visitors and members alike. */
export function InvitationPage() {
  const token = useParams().token ?? '';
  return <Invitation key={token} token={token} />;
}
