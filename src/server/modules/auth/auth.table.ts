export interface UsersTable {
  id: string;
  email: string;
  /** The e-mail folded for comparison, so Ann@X.com and ann@x.com are one account. */
  email_key: string;
  password_hash: string;
  is_admin: number;
  created_at: number;
  /** Written when a session starts or is seen (at most once a minute per session). */
  last_seen_at: number | null;
  /** Set while the administrator has disabled the account: it cannot sign in. */
  disabled_at: number | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a leaked table does not yield usable sessions. */
  token_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  /** The browser's User-Agent when the session started, to name the device to its owner. */
  user_agent: string | null;
}

/** A session with what a request needs of its user: what every signed-in request reads. */
export type SessionWithUser = Pick<SessionsTable, 'token_hash' | 'created_at' | 'last_seen_at'> &
  Pick<UsersTable, 'id' | 'email' | 'is_admin' | 'disabled_at'>;

/** A password reset link: single use (deleted when used), valid until `expires_at`. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** An invitation to join for one e-mail while registration is closed: single use, expiring. */
export interface InvitationsTable {
  token_hash: string;
  email_key: string;
  created_by: string;
  created_at: number;
  expires_at: number;
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
  password_resets: PasswordResetsTable;
  invitations: InvitationsTable;
}
