import type { Messages } from '@lingui/core';

/**
 * The English texts of the pages that load on demand, in one chunk fetched with the first of
 * them. The first page's English texts ship with it (src/client/i18n/i18n.ts); the shared
 * messages are written in English and need no catalogue.
 */
const catalogues = import.meta.glob<Messages>('./en/pages/*.json', {
  eager: true,
  import: 'default',
});

export const messages = Object.assign({}, ...Object.values(catalogues)) as Messages;
export const sharedMessages: Record<string, string> = {};
