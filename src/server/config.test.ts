import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDatabaseUrl } from './config.ts';

describe('loadConfig', () => {
  it('has a working default for every variable', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.database).toEqual({ dialect: 'sqlite', file: 'data/balance.sqlite' });
    expect(config.trustProxy).toBe(false);
    expect(config.logLevel).toBe('warn');
    expect(config.sessionIdleMs).toBeGreaterThan(0);
    expect(config.sessionMaxMs).toBeGreaterThan(config.sessionIdleMs);
  });

  it('reads the mail server and the sender together, and never repeats the SMTP password', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(
      loadConfig({
        SMTP_URL: 'smtps://billing:secret@mail.example.com:465',
        MAIL_FROM: 'Balance <billing@example.com>',
      }).mail,
    ).toEqual({
      url: 'smtps://billing:secret@mail.example.com:465',
      from: 'Balance <billing@example.com>',
    });
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com' })).toThrow(
      'MAIL_FROM="": must be set when SMTP_URL is',
    );
    expect(() => loadConfig({ MAIL_FROM: 'billing@example.com' })).toThrow(
      'SMTP_URL="": must be set when MAIL_FROM is',
    );
    expect(() =>
      loadConfig({ SMTP_URL: 'https://user:secret@mail.example.com', MAIL_FROM: 'a@b.co' }),
    ).toThrow(/SMTP_URL=\(not shown\): must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() =>
      loadConfig({ SMTP_URL: 'https://user:secret@mail.example.com', MAIL_FROM: 'a@b.co' }),
    ).not.toThrow(/secret/);
    expect(() =>
      loadConfig({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'not an address' }),
    ).toThrow('MAIL_FROM="not an address": must be an e-mail address');
  });

  it('reads the public address links in e-mails point to, as a bare http(s) origin', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://balance.example.com' }).publicUrl).toBe(
      'https://balance.example.com',
    );
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.5:3000/' }).publicUrl).toBe(
      'http://192.168.1.5:3000',
    );
    for (const bad of [
      'balance.example.com',
      'ftp://balance.example.com',
      'https://balance.example.com/app',
      'https://balance.example.com/?next=1',
      'https://balance.example.com/#top',
      'https://user:secret@balance.example.com',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(
        `PUBLIC_URL=${JSON.stringify(bad)}: must be the address people open this Balance at`,
      );
    }
  });

  it('reads the PostgreSQL timeouts in seconds, with defaults, and refuses nonsense', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({
      connectMs: 5000,
      statementMs: 15_000,
      idleInTransactionMs: 15_000,
    });
    expect(
      loadConfig({
        DATABASE_CONNECT_TIMEOUT_SECONDS: '2.5',
        DATABASE_STATEMENT_TIMEOUT_SECONDS: '30',
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: '60',
      }).databaseTimeouts,
    ).toEqual({ connectMs: 2500, statementMs: 30_000, idleInTransactionMs: 60_000 });
    for (const value of ['0', '-1', 'soon', '100000']) {
      expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_SECONDS: value })).toThrow(
        `DATABASE_STATEMENT_TIMEOUT_SECONDS="${value}": must be a number of seconds`,
      );
    }
  });

  it("reads the reminders' lease and run interval in seconds, with defaults, and refuses nonsense", () => {
    const defaults = loadConfig({});
    expect(defaults.reminderLeaseMs).toBe(300_000);
    expect(defaults.reminderRunMs).toBe(60_000);
    const short = loadConfig({ REMINDER_LEASE_SECONDS: '10', REMINDER_RUN_SECONDS: '1.5' });
    expect(short.reminderLeaseMs).toBe(10_000);
    expect(short.reminderRunMs).toBe(1500);
    for (const value of ['9', '0', '-5', 'soon', '86401']) {
      expect(() => loadConfig({ REMINDER_LEASE_SECONDS: value })).toThrow(
        `REMINDER_LEASE_SECONDS="${value}": must be a number of seconds from 10 to 86400`,
      );
    }
    for (const value of ['0.5', '0', 'often', '3601']) {
      expect(() => loadConfig({ REMINDER_RUN_SECONDS: value })).toThrow(
        `REMINDER_RUN_SECONDS="${value}": must be a number of seconds from 1 to 3600`,
      );
    }
  });

  it('reads the request timeout and the connection limits, and refuses nonsense', () => {
    const config = loadConfig({});
    expect(config.requestTimeoutMs).toBe(60_000);
    expect(config.maxConnections).toBe(1000);
    expect(config.maxConnectionsPerAddress).toBe(64);
    expect(config.liveStreamsPerSession).toBe(8);
    expect(config.liveStreamsPerOwner).toBe(32);
    expect(() => loadConfig({ LIVE_STREAMS_PER_OWNER: '0' })).toThrow('LIVE_STREAMS_PER_OWNER="0"');
    expect(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).maxConnectionsPerAddress).toBe(0);
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow('MAX_CONNECTIONS="0"');
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: 'x' })).toThrow(
      'REQUEST_TIMEOUT_SECONDS="x"',
    );
  });

  it('reads TRUST_PROXY as false, a hop count (true is one) or a list of proxy addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
    ]);
    for (const value of ['maybe', '10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '1,x']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(`TRUST_PROXY="${value}"`);
    }
  });

  it('hashes passwords at the production cost, which no variable can lower', () => {
    const production = { memory: 19_456, passes: 2, parallelism: 1 };
    expect(loadConfig({}).passwordHashing).toEqual(production);
    expect(loadConfig({ PASSWORD_HASHING: 'cheap', ARGON2_MEMORY: '8' }).passwordHashing).toEqual(
      production,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '' }).port).toBe(3000);
  });

  it.each(['abc', '-1', '65536', '3.5'])('refuses PORT=%s and names it', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: port })).toThrow(`PORT="${port}"`);
  });

  it('names every bad variable in one message', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud', TRUST_PROXY: 'maybe' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT="x"');
    expect(message).toContain('LOG_LEVEL="loud"');
    expect(message).toContain('TRUST_PROXY="maybe"');
  });
});

describe('parseDatabaseUrl', () => {
  it('selects PostgreSQL for postgres:// and postgresql:// URLs', () => {
    expect(parseDatabaseUrl('postgres://u@h:5432/db')).toEqual({
      dialect: 'postgres',
      connectionString: 'postgres://u@h:5432/db',
    });
    expect(parseDatabaseUrl('postgresql://u@h/db').dialect).toBe('postgres');
  });

  it('reads anything else as an SQLite file, with or without a scheme', () => {
    expect(parseDatabaseUrl('sqlite:./x.db')).toEqual({ dialect: 'sqlite', file: './x.db' });
    expect(parseDatabaseUrl('file:///tmp/x.db')).toEqual({ dialect: 'sqlite', file: '/tmp/x.db' });
    expect(parseDatabaseUrl('/var/lib/balance.sqlite')).toEqual({
      dialect: 'sqlite',
      file: '/var/lib/balance.sqlite',
    });
  });

  it('refuses other URL schemes', () => {
    expect(() => parseDatabaseUrl('mysql://u@h/db')).toThrow(/DATABASE_URL/);
  });
});
