// What the overview's routes read: figures across all of an owner's clients.
export {
  largestDebtors,
  overdueClientsByCurrency,
  positionsByCurrency,
  type CurrencyPosition,
} from './overview.repository.ts';
