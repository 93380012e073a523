export interface ClientLinksTable {
  id: string;
  owner_id: string;
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
}

export interface ClientLinkTables {
  client_links: ClientLinksTable;
}
