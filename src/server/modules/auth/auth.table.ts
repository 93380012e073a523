import type { Generated } from 'kysely';
import type { BookRole } from '../../../shared/schemas/books.ts';

export interface UsersTable {
  id: string;
  email: string;
  email_key: string;
  password_hash: string;
  is_admin: number;
  created_at: number;
  /** Written when a session starts or is seen (at most once a minute per session). */
  last_seen_at: number | null;
  disabled_at: number | null;
  /** The person's language: their screens and the e-mails to them; null follows the browser. */
  language: Generated<string | null>;
}

interface SessionsTable {
  /** SHA-256 of the cookie's token: a leaked table does not yield usable sessions. */
  token_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  user_agent: string | null;
  /** The book the session acts in; null until one is chosen (or after it was deleted). */
  book_id: string | null;
}

export type SessionWithUser = Pick<
  SessionsTable,
  'token_hash' | 'created_at' | 'last_seen_at' | 'book_id'
> & { role: BookRole | null } & Pick<UsersTable, 'id' | 'email' | 'is_admin' | 'disabled_at'>;

interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

interface InvitationsTable {
  token_hash: string;
  email_key: string;
  created_by: string;
  created_at: number;
  expires_at: number;
}

interface LoginThrottleTable {
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
