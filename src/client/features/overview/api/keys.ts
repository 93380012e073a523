/**
 * The overview's query key, on its own so the live-update path (in every page's code) can
 * refresh it without bringing in the overview's schema.
 */
export const overviewKey = ['overview'] as const;
