export interface UsersTable {
  id: string;
  email: string;
  /** The e-mail folded for comparison, so Ann@X.com and ann@x.com are one account. */
  email_key: string;
  password_hash: string;
  is_admin: number;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a leaked table does not yield usable sessions. */
  token_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_started_at: number;
}

export interface AccountTables {
  users: UsersTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
}
