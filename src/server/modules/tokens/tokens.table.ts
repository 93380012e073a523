export interface AccessTokensTable {
  id: string;
  user_id: string;
  /** The one book the token acts in (migration 0045). */
  book_id: string;
  name: string;
  /** SHA-256 of the whole secret (prefix included): a leaked table does not yield usable tokens. */
  token_hash: string;
  read_only: number;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
}

export interface TokenTables {
  access_tokens: AccessTokensTable;
}
