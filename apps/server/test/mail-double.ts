import { simpleParser, type ParsedMail } from 'mailparser';
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A free loopback port (this file is also used by the browser suite, outside vitest). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A local SMTP server that keeps every message it receives, parsed (TESTING.md: the SMTP double). */
export async function startMailbox(): Promise<{
  url: string;
  messages: ParsedMail[];
  next: (to: string) => Promise<ParsedMail>;
  close: () => Promise<void>;
}> {
  const messages: ParsedMail[] = [];
  const waiting: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          waiting.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const recipient = (mail: ParsedMail) =>
    (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(to) {
      for (;;) {
        const found = messages.find((m) => recipient(m).includes(to));
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return found;
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
