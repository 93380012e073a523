import type { Generated } from 'kysely';
import type { BookRole } from '../../../shared/schemas/books.ts';

/** A business's book: its clients, ledger and settings belong to it (migration 0045). */
interface BooksTable {
  id: string;
  created_at: number;
  /** The last day of the closed period (YYYY-MM-DD, migration 0046); null: nothing is closed. */
  lock_date: Generated<string | null>;
}

/** Who keeps a book, and as what. A book always has at least one owner. */
interface BookMembersTable {
  book_id: string;
  user_id: string;
  role: BookRole;
  created_at: number;
}

/** A collector's clients: the only ones they see and act on. */
interface CollectorClientsTable {
  book_id: string;
  user_id: string;
  client_id: string;
}

/** An invitation to join a book: a link that works once, until it expires or is revoked. */
interface BookInvitationsTable {
  id: string;
  book_id: string;
  email: string;
  email_key: string;
  role: BookRole;
  /** A collector's clients, as a JSON array of ids. */
  client_ids: string;
  /** SHA-256 of the link's secret. */
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

export interface BookTables {
  books: BooksTable;
  book_members: BookMembersTable;
  collector_clients: CollectorClientsTable;
  book_invitations: BookInvitationsTable;
}
