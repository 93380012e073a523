/**
 * The fault tests run a quick form in `npm test`; `npm run test:faults` sets FAULT_RUN=full for
 * more rounds of each fault.
 */
export const fullRun = process.env.FAULT_RUN === 'full';

/** How many rounds of a fault to inject: a few in the quick form, more in the full one. */
export function rounds(quick: number, full: number): number {
  return fullRun ? full : quick;
}
