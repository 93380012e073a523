export { emailKey, findUserByEmail, toSessionUser } from './auth.repository.ts';
export { findUserById, listSessionsOfUser, listUsers } from './account.repository.ts';
