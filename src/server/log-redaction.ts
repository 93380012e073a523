// Each line is scrubbed whole as it is written, so a message nobody thought of is covered too
// (decision 017).
import { clientLinkSegment } from '../shared/api-routes.ts';

const redacted = '[redacted]';

const secretParameter =
  /([?&;\s"]|^)((?:[\w.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|invite|session|signature|credential)[\w.-]*|key|code|sig|auth))=([^&#;\s"\\]*)/gi;
/**
 * A password in a URL: `postgres://user:password@host`, `smtps://user:password@host`; up to the
 * last `@` of the authority, since a decoded password may hold one.
 */
const urlPassword = /(\b[a-z][\w+.-]*:\/\/[^/\s:@"\\]*:)([^\s/"\\]+)@/gi;
const accessToken = /\bbal_[\w-]+/g;
// No word or identifier of ours mixes cases and digits at a token's length (ids are 22).
const randomToken = /(?<![\w-])(?=[\w-]*[a-z])(?=[\w-]*[A-Z])(?=[\w-]*\d)[\w-]{32,}(?![\w-])/g;
// Every secret of ours is 256 random bits in base64url: 43 characters, which by chance may hold
// no digit or no capital (the rule above would miss it). Ids are 22, hashes 64.
const secretLength = /(?<![\w-])[\w-]{43}(?![\w-])/g;

/**
 * Pages whose next segment is a secret: a client link (`/c/<secret>`, and its files) and a reset
 * link. Compared without case: the router tells `/C/` from `/c/`, but the browser app's may not.
 */
const secretPathPrefixes = new Set([clientLinkSegment, 'reset-password']);
/** What may follow a client link's secret and says nothing of it. */
const harmlessTails = new Set(['statement.pdf', 'statement.csv']);

/**
 * Cuts every segment after a secret page's prefix, in a text already decoded. Segments are split
 * on every slash and compared as they are, so `//c//x`, `/./c/x`, `/api/../c/x` and `/C/x` are
 * cut like `/c/x` whether or not the router would resolve them: what is cut is never needed.
 */
function redactSecretPaths(text: string): string {
  const segments = text.split('/');
  let cutting = false;
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index] ?? '';
    if (cutting && segment !== '' && segment !== '.' && segment !== '..') {
      // A query or fragment ends the path: what follows is judged by the other rules.
      const end = segment.search(/[?#]/);
      const head = end === -1 ? segment : segment.slice(0, end);
      segments[index] = (harmlessTails.has(head) ? head : redacted) + segment.slice(head.length);
      if (end !== -1) cutting = false;
    } else if (!cutting && secretPathPrefixes.has(segment.toLowerCase())) cutting = true;
  }
  return segments.join('/');
}

function redactText(text: string): string {
  return redactSecretPaths(
    text
      .replace(urlPassword, `$1${redacted}@`)
      .replace(secretParameter, `$1$2=${redacted}`)
      .replace(accessToken, `bal_${redacted}`),
  )
    .replace(randomToken, redacted)
    .replace(secretLength, redacted);
}

const escapes = /(?:%[\da-f]{2})+/gi;

/** One round of %-decoding; an escape that is not UTF-8 is decoded byte by byte where ASCII. */
function decodeOnce(text: string): string {
  return text.replace(escapes, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([\da-f]{2})/gi, (escape, hex: string) =>
        Number.parseInt(hex, 16) < 0x80 ? String.fromCharCode(Number.parseInt(hex, 16)) : escape,
      );
    }
  });
}

/** Decoded as the router and the browser app would, and once more for an escape of an escape. */
function decoded(word: string): string {
  let text = word;
  for (let round = 0; round < 4; round++) {
    const next = decodeOnce(text);
    if (next === text) break;
    text = next;
  }
  return text;
}

/** Written back so that the line stays one line of valid JSON. */
const unsafeInLog = /[\s"\\%\p{Cc}]/gu;

/**
 * A word of the line (an address, typically) is judged decoded, so `/%63/<secret>`, `/c%2F<secret>`
 * and `?%69nvite=<secret>` are seen for what they are; when decoding shows a secret, the word is
 * written decoded, with the secret cut.
 */
function redactWord(word: string): string {
  const plain = redactText(word);
  if (!word.includes('%')) return plain;
  const text = decoded(word);
  const cut = redactText(text);
  if (cut === text) return plain;
  return cut.replace(unsafeInLog, (character) => encodeURIComponent(character));
}

export function redactSecrets(text: string): string {
  return text.replace(/[^\s"\\]+/g, redactWord);
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
