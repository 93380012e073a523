interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  /** SHA-256 of the method, path and body: the same key with another request is refused. */
  request_hash: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: number;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
