// What the overview's routes read: figures across all of an owner's clients. The sums per
// currency and per due day are those the ledger's write path keeps (ledger/kept-sums.repository.ts).
export { largestDebtors } from './overview.repository.ts';
export {
  overdueClientsByCurrency,
  positionsByCurrency,
  type CurrencyPosition,
} from '../ledger/ledger.queries.ts';
