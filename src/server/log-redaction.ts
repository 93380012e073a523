// No secret reaches a log line, at any level (docs/security.md, "Logs"). Headers and bodies are
// not logged; what remains is text that can carry one: a request's address (a reset link's path,
// an invitation's query, a token sent as ?access_token=) and the messages of errors (a URL with a
// password in it). Each log line is scrubbed as a whole just before it is written, so a message
// nobody thought of is covered too.

const redacted = '[redacted]';

/** Query parameters (and `name=value` text) whose value is a credential, by their name. */
const secretParameter =
  /([?&;\s"]|^)((?:[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|invite|session|signature|credential)[\w.-]*|key|code|sig|auth))=([^&#;\s"\\]*)/gi;
/** A password in a URL: `postgres://user:password@host`, `smtps://user:password@host`. */
const urlPassword = /(\b[a-z][\w+.-]*:\/\/[^/\s:@"\\]*:)([^@\s/"\\]+)@/gi;
/** The one-time link's path (`/reset-password/<token>`), with or without the API's prefix. */
const resetPath = /(\/reset-password\/)[^/?#\s"\\]+/gi;
/** An access token, wherever it is: its prefix says what it is. */
const accessToken = /\bbal_[\w-]+/g;
/**
 * A run of random-looking text as long as our tokens (256 bits are 43 characters), in a path or
 * anywhere else: letters of both cases and digits, which no word or identifier of ours mixes at
 * that length (ids are 22 characters).
 */
const randomToken = /(?<![\w-])(?=[\w-]*[a-z])(?=[\w-]*[A-Z])(?=[\w-]*\d)[\w-]{32,}(?![\w-])/g;

/** The text with every secret it holds replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text
    .replace(urlPassword, `$1${redacted}@`)
    .replace(secretParameter, `$1$2=${redacted}`)
    .replace(resetPath, `$1${redacted}`)
    .replace(accessToken, `bal_${redacted}`)
    .replace(randomToken, redacted);
}

/** Fields that hold a secret wherever they are logged (pino `redact` paths). */
const secretFields = [
  'password',
  'currentPassword',
  'newPassword',
  'token',
  'secret',
  'invite',
  'cookie',
  'authorization',
];

/**
 * Pino options that keep secrets out of the log. `streamWrite` sees each line as written, after
 * Fastify's serializers have put the request's address in it.
 */
export const secretFreeLogging = {
  redact: {
    paths: [
      'req.headers.cookie',
      'req.headers.authorization',
      'res.headers["set-cookie"]',
      ...secretFields,
      ...secretFields.map((field) => `*.${field}`),
    ],
    censor: redacted,
  },
  hooks: { streamWrite: redactSecrets },
};
