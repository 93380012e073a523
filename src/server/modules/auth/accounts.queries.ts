// What the auth routes, and the token module's bearer hook, read of accounts and sessions.
// Changes go through accounts.commands.ts.
export { emailKey, findUserByEmail, toSessionUser } from './auth.repository.ts';
export { findUserById, listSessionsOfUser, listUsers } from './account.repository.ts';
