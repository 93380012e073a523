// Plain lists of the client list, without zod, so that the browser's first page can use them
// without loading a schema library; src/shared/schemas/clients.ts builds the schemas on them.

/** The orders the client list can be sorted in (GET /api/clients?sort=). */
export const clientSorts = ['name', 'email', 'balance', 'created'] as const;
export type ClientSort = (typeof clientSorts)[number];

/** The ageing buckets, in order, with their English names (statements and CSV). */
export const ageingBucketLabels = {
  current: 'Current',
  days1to30: '1-30 days',
  days31to60: '31-60 days',
  days61to90: '61-90 days',
  over90: '90+ days',
} as const;
export type AgeingBucketName = keyof typeof ageingBucketLabels;
