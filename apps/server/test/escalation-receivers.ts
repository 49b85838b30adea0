// Real receivers for the escalation tests (decision 060): an SMTP server (smtp-server) that keeps every message, and
// an HTTP receiver that keeps every webhook and can refuse the first few.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export async function startSmtpReceiver(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: string;
  answered: number;
}

/** Answers 503 to the first `failFirst` posts, 200 after. */
export async function startWebhookReceiver(failFirst = 0): Promise<{ url: string; hooks: ReceivedHook[]; close(): Promise<void> }> {
  const hooks: ReceivedHook[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answered = hooks.length < failFirst ? 503 : 200;
      hooks.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'busy, try later');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/prison`,
    hooks,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
