import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const positiveInteger = (what: string) =>
  z.coerce
    .number({ error: `must be ${what}` })
    .int({ error: `must be ${what}` })
    .positive({ error: `must be ${what}` });

const seconds = (min: number, max: number) => {
  const message = `must be a number of seconds from ${min} to ${max}`;
  return z.coerce
    .number({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
};

const trustProxyMessage =
  'must be false, true (one proxy), a number of proxies, or a comma-separated list of proxy addresses (IP or CIDR)';

export function proxyEntry(text: string): { address: string; prefix: number | null } | null {
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return null;
  if (prefix === undefined) return { address, prefix: null };
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return bits >= 0 && bits <= (family === 4 ? 32 : 128) ? { address, prefix: bits } : null;
}

// `true` means one proxy, never every hop: a client can write any address into X-Forwarded-For.
const trustProxyText = z
  .string()
  .trim()
  .transform((text, context): false | number | string[] => {
    const lowered = text.toLowerCase();
    if (['false', 'no', '0'].includes(lowered)) return false;
    if (['true', 'yes'].includes(lowered)) return 1;
    if (/^\d{1,2}$/.test(text)) return Number(text);
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.every((entry) => proxyEntry(entry) !== null)) return entries;
    context.addIssue({ code: 'custom', message: trustProxyMessage });
    return z.NEVER;
  });

const mailFromPattern =
  /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

export interface MailConfig {
  url: string;
  from: string;
}

const publicUrlMessage =
  'must be the address people open this Balance at: http:// or https://, a host, no path, query or fragment (e.g. https://balance.example.com)';

// Never taken from the Host header, which anyone can write to send a reset link to their own site.
const publicUrlText = z
  .string()
  .trim()
  .transform((text, context) => {
    try {
      const url = new URL(text);
      const bare =
        ['http:', 'https:'].includes(url.protocol) &&
        url.hostname !== '' &&
        url.username === '' &&
        url.password === '' &&
        url.pathname === '/' &&
        url.search === '' &&
        url.hash === '' &&
        !/[?#]/.test(text);
      if (bare) return url.origin;
    } catch {
      // Not a URL at all: the same message below.
    }
    context.addIssue({ code: 'custom', message: publicUrlMessage });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a whole number from 0 to 65535' })
    .int({ error: 'must be a whole number from 0 to 65535' })
    .min(0, { error: 'must be a whole number from 0 to 65535' })
    .max(65535, { error: 'must be a whole number from 0 to 65535' })
    .default(3000),
  HOST: z.string().trim().min(1, { error: 'must not be empty' }).default('127.0.0.1'),
  DATABASE_URL: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    // An owner's terminal shows the start line and what went wrong; whoever ships logs sets info.
    .default('warn'),
  TRUST_PROXY: trustProxyText.default(false),
  SESSION_IDLE_MINUTES: positiveInteger('a whole number of minutes above 0').default(60 * 24),
  SESSION_MAX_HOURS: positiveInteger('a whole number of hours above 0').default(24 * 14),
  LIVE_HEARTBEAT_SECONDS: seconds(1, 300).default(15),
  LIVE_STREAMS_PER_SESSION: positiveInteger('a whole number above 0').default(8),
  LIVE_STREAMS_PER_OWNER: positiveInteger('a whole number above 0').default(32),
  REQUEST_TIMEOUT_SECONDS: seconds(1, 3600).default(60),
  MAX_CONNECTIONS: positiveInteger('a whole number above 0').default(1000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a whole number, 0 for no limit' })
    .int({ error: 'must be a whole number, 0 for no limit' })
    .min(0, { error: 'must be a whole number, 0 for no limit' })
    .default(64),
  ALLOWED_HOSTS: z
    .string()
    .trim()
    .transform((text) =>
      text
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host.length > 0),
    )
    .refine((hosts) => hosts.every((host) => /^[a-z0-9.[\]:-]+$/.test(host)), {
      error: 'must be a comma-separated list of host names (with :port where it is not 80 or 443)',
    })
    .default([]),
  SIGN_UPS_PER_ADDRESS_PER_HOUR: z.coerce
    .number({ error: 'must be a whole number, 0 for no limit' })
    .int({ error: 'must be a whole number, 0 for no limit' })
    .min(0, { error: 'must be a whole number, 0 for no limit' })
    .default(10),
  TOKEN_REQUESTS_PER_MINUTE: positiveInteger('a whole number above 0').default(600),
  SMTP_URL: z
    .string()
    .trim()
    .refine(
      (text) => {
        try {
          const url = new URL(text);
          return ['smtp:', 'smtps:'].includes(url.protocol) && url.hostname !== '';
        } catch {
          return false;
        }
      },
      {
        error:
          'must be an smtp:// or smtps:// URL, e.g. smtps://user:password@mail.example.com:465',
      },
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .refine((text) => mailFromPattern.test(text), {
      error: 'must be an e-mail address, or a name and an address: Balance <billing@example.com>',
    })
    .optional(),
  PUBLIC_URL: publicUrlText.optional(),
  // Shorter than the defaults only to test many instances and kills in minutes (decision 029).
  REMINDER_LEASE_SECONDS: seconds(10, 86_400).default(300),
  REMINDER_RUN_SECONDS: seconds(1, 3600).default(60),
  DATABASE_CONNECT_TIMEOUT_SECONDS: seconds(0.1, 300).default(5),
  DATABASE_STATEMENT_TIMEOUT_SECONDS: seconds(0.1, 3600).default(15),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: seconds(0.1, 3600).default(15),
});

export type DatabaseConfig =
  { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; connectionString: string };

export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
  idleInTransactionMs: number;
}

export interface PasswordHashParams {
  memory: number;
  passes: number;
  parallelism: number;
}

/** OWASP's minimum for argon2id. Raise here; old hashes upgrade at the next login. */
export const productionPasswordHashing: PasswordHashParams = Object.freeze({
  memory: 19_456,
  passes: 2,
  parallelism: 1,
});

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Anything but false also marks cookies Secure over HTTPS and sends HSTS. */
  trustProxy: false | number | string[];
  sessionIdleMs: number;
  sessionMaxMs: number;
  liveHeartbeatMs: number;
  liveStreamsPerSession: number;
  liveStreamsPerOwner: number;
  databaseTimeouts: DatabaseTimeouts;
  requestTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  allowedHosts: string[];
  signUpsPerAddressPerHour: number;
  tokenRequestsPerMinute: number;
  mail: MailConfig | null;
  publicUrl: string | null;
  /** How long a reminder's claim holds before another instance may send it again. */
  reminderLeaseMs: number;
  /** How often each instance looks for reminders to send. */
  reminderRunMs: number;
  /** Not from the environment: only the tests' app is built with cheaper parameters. */
  passwordHashing: PasswordHashParams;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const defaultSqliteFile = path.join('data', 'balance.sqlite');

export function parseDatabaseUrl(url: string | undefined): DatabaseConfig {
  if (url === undefined) return { dialect: 'sqlite', file: defaultSqliteFile };
  if (/^postgres(ql)?:\/\//i.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new ConfigError('DATABASE_URL: is not a valid PostgreSQL URL');
    }
    return { dialect: 'postgres', connectionString: url };
  }
  const file = url.replace(/^(sqlite|file):(\/\/)?/i, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
    throw new ConfigError(
      'DATABASE_URL: must be a postgres:// URL or the path of an SQLite file (sqlite:path)',
    );
  }
  if (file.length === 0) throw new ConfigError('DATABASE_URL: the SQLite file path is empty');
  return { dialect: 'sqlite', file };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // The SMTP URL carries a password: never repeated into a log.
      const shown = name === 'SMTP_URL' ? '(not shown)' : JSON.stringify(present[name] ?? '');
      return `  ${name}=${shown}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  // A server that half knows how to send mail would fail only when used.
  if (values.SMTP_URL && !values.MAIL_FROM)
    throw new ConfigError(
      'Invalid configuration:\n  MAIL_FROM="": must be set when SMTP_URL is (the address mail is sent from)',
    );
  if (values.MAIL_FROM && !values.SMTP_URL)
    throw new ConfigError(
      'Invalid configuration:\n  SMTP_URL="": must be set when MAIL_FROM is (the server that sends the mail)',
    );
  return {
    port: values.PORT,
    host: values.HOST,
    database: parseDatabaseUrl(values.DATABASE_URL),
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY,
    sessionIdleMs: values.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: values.SESSION_MAX_HOURS * 3_600_000,
    liveHeartbeatMs: Math.round(values.LIVE_HEARTBEAT_SECONDS * 1000),
    liveStreamsPerSession: values.LIVE_STREAMS_PER_SESSION,
    liveStreamsPerOwner: values.LIVE_STREAMS_PER_OWNER,
    requestTimeoutMs: Math.round(values.REQUEST_TIMEOUT_SECONDS * 1000),
    maxConnections: values.MAX_CONNECTIONS,
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS,
    signUpsPerAddressPerHour: values.SIGN_UPS_PER_ADDRESS_PER_HOUR,
    allowedHosts: values.ALLOWED_HOSTS,
    tokenRequestsPerMinute: values.TOKEN_REQUESTS_PER_MINUTE,
    mail:
      values.SMTP_URL && values.MAIL_FROM ? { url: values.SMTP_URL, from: values.MAIL_FROM } : null,
    publicUrl: values.PUBLIC_URL ?? null,
    reminderLeaseMs: Math.round(values.REMINDER_LEASE_SECONDS * 1000),
    reminderRunMs: Math.round(values.REMINDER_RUN_SECONDS * 1000),
    passwordHashing: productionPasswordHashing,
    databaseTimeouts: {
      connectMs: Math.round(values.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000),
      statementMs: Math.round(values.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000),
      idleInTransactionMs: Math.round(values.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS * 1000),
    },
  };
}
