/** A large import's staging book (migrations 0044 and 0045, decision 042). */
interface StagedImportsTable {
  /** The staging book's id: its rows are written under it. */
  id: string;
  /** The book the rows are for. */
  book_id: string;
  started_at: number;
}

export interface StagingTables {
  staged_imports: StagedImportsTable;
}
