export interface ClientLinksTable {
  id: string;
  book_id: string;
  client_id: string;
  /** SHA-256 of the secret in the link's address: the table alone opens no page. */
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
  /** Set when the owner revokes it or makes a new one; the row stays to name whom to ask. */
  revoked_at: number | null;
  /** To the minute: written at most once a minute, outside the write path, like a token's use. */
  last_opened_at: number | null;
  /** When the last `link_opened` event was recorded: at most one an hour. */
  opened_recorded_at: number | null;
  /** Which credential made it: null for links made before this was kept. */
  made_by: LinkMakerKind | null;
  /** The session's public id (never its hash) or the token's id. */
  made_by_id: string | null;
  /** The session's User-Agent, or the token's name. */
  made_by_label: string | null;
  /** When the session signed in, or the token was made. */
  made_by_started_at: number | null;
}

export type LinkMakerKind = 'session' | 'token' | 'reminder';

export interface ClientLinkTables {
  client_links: ClientLinksTable;
}
