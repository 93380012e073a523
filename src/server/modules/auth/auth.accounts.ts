// What the auth routes use of the users and sessions tables. Accounts are not an owner's data
// (no client list, history or live stream depends on them), so they change here, outside the
// owner's write path; deleting an account, which removes the owner's data, goes through
// `app.writes.removeOwner`.
export {
  deleteSession,
  emailKey,
  findUserByEmail,
  hasAnyUser,
  insertUser,
  toSessionUser,
  updatePasswordHash,
} from './auth.repository.ts';
export {
  countUsers,
  deleteExpiredLinks,
  deletePasswordResetsOfUser,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  deleteUser,
  findUserById,
  insertInvitation,
  listSessionsOfUser,
  listUsers,
  replacePasswordReset,
  setDisabled,
  takeInvitation,
  takePasswordReset,
  updateEmail,
} from './account.repository.ts';
