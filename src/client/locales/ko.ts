import type { Messages } from '@lingui/core';
import shared from '../../shared/messages/ko.json' with { type: 'json' };

/**
 * Every text of this language in one chunk, fetched when the language is chosen: the app's
 * catalogues and the shared schemas' and server's messages (keyed by their English text).
 */
const catalogues = import.meta.glob<Messages>('./ko/**/*.json', {
  eager: true,
  import: 'default',
});

export const messages = Object.assign({}, ...Object.values(catalogues)) as Messages;
export const sharedMessages: Record<string, string> = shared;
