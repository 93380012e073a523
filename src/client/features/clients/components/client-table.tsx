import { Link } from 'react-router';
import { formatMoney } from '../../../../shared/money.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';

export function ClientTable({ clients }: { clients: Client[] }) {
  if (clients.length === 0) return <p className="text-body-secondary">No client added</p>;
  return (
    <div className="table-responsive">
      <table className="table table-striped align-middle">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col" className="text-end">
              Balance
            </th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => (
            <tr key={client.id}>
              <td>
                {client.firstName} {client.lastName}
              </td>
              <td className="text-break">{client.email}</td>
              <td className="text-end text-nowrap">
                {formatMoney(client.balance, client.currency)}
              </td>
              <td className="text-end">
                <Link to={`/client/${client.id}`} className="btn btn-sm btn-outline-secondary">
                  Details
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
