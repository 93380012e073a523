import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/document-title.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="text-center py-5">
      <h1>Page not found</h1>
      <Link to="/">Go back</Link>
    </div>
  );
}
