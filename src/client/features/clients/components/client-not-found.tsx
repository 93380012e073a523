import { Link } from 'react-router';

export function ClientNotFound() {
  return (
    <div className="text-center py-5">
      <h1>Client not found</h1>
      <Link to="/">Back to dashboard</Link>
    </div>
  );
}
