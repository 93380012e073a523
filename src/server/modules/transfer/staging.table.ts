/** A large import's staging account (migration 0044, decision 042). */
interface StagedImportsTable {
  /** The staging account's id in `users`: its rows are written under it. */
  id: string;
  /** The owner the rows are for. */
  owner_id: string;
  started_at: number;
}

export interface StagingTables {
  staged_imports: StagedImportsTable;
}
