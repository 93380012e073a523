// Each line is scrubbed whole as it is written, so a message nobody thought of is covered too
// (decision 017).

const redacted = '[redacted]';

const secretParameter =
  /([?&;\s"]|^)((?:[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|invite|session|signature|credential)[\w.-]*|key|code|sig|auth))=([^&#;\s"\\]*)/gi;
/** A password in a URL: `postgres://user:password@host`, `smtps://user:password@host`. */
const urlPassword = /(\b[a-z][\w+.-]*:\/\/[^/\s:@"\\]*:)([^@\s/"\\]+)@/gi;
const resetPath = /(\/reset-password\/)[^/?#\s"\\]+/gi;
/** A client link's page and its files: `/c/<secret>`, `/c/<secret>/statement.pdf`. */
const clientLinkPath = /(\/c\/)[^/?#\s"\\]+/gi;
const accessToken = /\bbal_[\w-]+/g;
// No word or identifier of ours mixes cases and digits at a token's length (ids are 22).
const randomToken = /(?<![\w-])(?=[\w-]*[a-z])(?=[\w-]*[A-Z])(?=[\w-]*\d)[\w-]{32,}(?![\w-])/g;

export function redactSecrets(text: string): string {
  return text
    .replace(urlPassword, `$1${redacted}@`)
    .replace(secretParameter, `$1$2=${redacted}`)
    .replace(resetPath, `$1${redacted}`)
    .replace(clientLinkPath, `$1${redacted}`)
    .replace(accessToken, `bal_${redacted}`)
    .replace(randomToken, redacted);
}

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

/** `streamWrite` sees each line after Fastify's serializers have put the address in it. */
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
