import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a loopback port for a test: it keeps every message it accepts, parsed,
 * or refuses every recipient with `refuse` (an SMTP reply code and text).
 */
export async function startSmtpServer(options: { refuse?: { code: number; text: string } } = {}) {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain text on loopback: the test has no certificate for STARTTLS to check.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Looking up the loopback address's name cost about 0.4 s per message here.
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      if (!options.refuse) return callback();
      const refusal = Object.assign(new Error(options.refuse.text), {
        responseCode: options.refuse.code,
      });
      callback(refusal);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on: taken from the system, then given back. */
export async function unusedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
