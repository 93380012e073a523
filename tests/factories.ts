import type { ClientInput } from '../src/shared/schemas/clients.ts';

let counter = 0;

/** A valid client body; override any field. */
export function buildClient(overrides: Partial<ClientInput> = {}): ClientInput {
  counter += 1;
  return {
    firstName: 'Ada',
    lastName: `Lovelace${counter}`,
    email: `ada.${counter}@example.com`,
    phone: '+44 20 7946 0018',
    balance: 12_345,
    currency: 'USD',
    ...overrides,
  };
}
