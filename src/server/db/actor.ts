/**
 * Who made a change (migration 0045): the person, and the access token if they used one. A change
 * nobody made at that moment (a reminder the sender mailed, a client opening their link) has none.
 * Recorded on its events by the write path, and carried to the SQLite writer's thread with the
 * command.
 */
export interface Actor {
  userId: string;
  tokenId: string | null;
}
