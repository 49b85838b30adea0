// The TLS example (deploy/nginx-tls.conf) with the real nginx of Debian 12 (1.22; `apt-get install -y nginx`): it
// passes `nginx -t`, and an nginx of this test's own (its own ports, never 80/443, never the system's service, a
// throwaway certificate made by openssl) in front of the real app redirects plain HTTP to HTTPS, and carries a login,
// the socket and a site plan upload of the largest size the server accepts (20 MiB).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE, SITE_PLAN_MAX_BYTES } from '@prison/shared';
import { parseTrustProxy } from '../src/config';
import { freePort, HTTP_PORTS, startChild, stopStartedChildren } from './cluster-kit';
import { startTestApp, TEST_ADMIN, type TestContext } from './test-app';
import { waitFor } from './wait-for';

const root = path.resolve(import.meta.dirname, '../../..');

function nginxBinary(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx']) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() || null : null;
}
const nginx = nginxBinary();
const openssl = spawnSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).status === 0;

/**
 * The shipped site configuration on this test's ports and certificate: only the addresses it listens on, the
 * certificate's files and the app's address change; every directive stays as shipped.
 */
function siteOnOwnPorts(conf: string, ports: { http: number; https: number; app: number }, dir: string): string {
  const replaced = conf
    .replace(/^\s*listen \[::\]:.*$/gm, '') // this machine may have no IPv6
    .replace(/listen 80;/, `listen 127.0.0.1:${ports.http};`)
    .replace(/listen 443 (ssl[^;]*);/, `listen 127.0.0.1:${ports.https} $1;`)
    .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${dir}/cert.pem;`)
    .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${dir}/key.pem;`)
    .replace('proxy_pass http://127.0.0.1:3000;', `proxy_pass http://127.0.0.1:${ports.app};`);
  for (const expected of [`127.0.0.1:${ports.http}`, `127.0.0.1:${ports.https} ssl`, `${dir}/cert.pem`, `${dir}/key.pem`, `127.0.0.1:${ports.app}`])
    expect(replaced, `the shipped file no longer has the line this test moves to ${expected}`).toContain(expected);
  return replaced;
}

/** The main configuration around it: files of this test only (pid, logs, temporary bodies), in the foreground. */
function mainConf(dir: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`;
}

/** A real PNG of `bytes` bytes in all: a small image and a private ancillary chunk of filler. */
function pngOfSize(bytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(400, 0);
  header.writeUInt32BE(300, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc(401 * 300, 0x80);
  for (let y = 0; y < 300; y++) rows[y * 401] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const parts = [chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))];
  const used = signature.length + parts.reduce((sum, part) => sum + part.length, 0) + 12;
  const filler = chunk('flLr', Buffer.alloc(bytes - used, 0x5a));
  const png = Buffer.concat([signature, parts[0]!, filler, parts[1]!, parts[2]!]);
  expect(png.length).toBe(bytes);
  return png;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe.skipIf(!nginx || !openssl)('deploy/nginx-tls.conf with the real nginx', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'prison-nginx-'));
  const ports = { http: 0, https: 0, app: 0 };
  let ctx: TestContext | undefined;
  let ca: Buffer;

  /** A request to this test's nginx over HTTPS, trusting the throwaway certificate only. */
  function request(method: string, route: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const sent = https.request({ host: '127.0.0.1', port: ports.https, method, path: route, headers, ca }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      sent.on('error', reject);
      sent.end(body);
    });
  }

  beforeAll(async () => {
    // The directory is read by nginx's worker, which runs as another user when the test runs as root.
    chmodSync(dir, 0o755);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`], { stdio: 'pipe' });
    ca = readFileSync(`${dir}/cert.pem`);
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, temp), { mode: 0o777 });

    // The app as the proxy example expects it: it believes the proxy on this machine (deploy/prison-tracker.env).
    ctx = await startTestApp('pglite', { TRUST_PROXY: parseTrustProxy('127.0.0.1')! });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ports.app = (ctx.app.server.address() as AddressInfo).port;
    ports.http = await freePort(HTTP_PORTS);
    ports.https = await freePort(HTTP_PORTS);
    writeFileSync(path.join(dir, 'site.conf'), siteOnOwnPorts(readFileSync(path.join(root, 'deploy/nginx-tls.conf'), 'utf8'), ports, dir));
    writeFileSync(path.join(dir, 'nginx.conf'), mainConf(dir));
  }, 60_000);

  afterAll(async () => {
    await stopStartedChildren('SIGTERM');
    await ctx?.app.close();
    await ctx?.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes nginx -t', () => {
    const checked = spawnSync(nginx!, ['-t', '-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`], { encoding: 'utf8' });
    expect(checked.stderr).toContain('test is successful');
    expect(checked.stderr).not.toMatch(/\[(emerg|warn)\]/);
    expect(checked.status).toBe(0);
  });

  it('redirects HTTP to HTTPS and carries a login, the socket and a 20 MiB site plan upload', async () => {
    const server = startChild(nginx!, ['-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`, '-g', 'daemon off;'], process.env);
    await waitFor('nginx on its HTTPS port', () => request('GET', '/readyz').then((answer) => answer.status === 200, () => false), 15_000, 100);

    // Plain HTTP only redirects, to the same path over HTTPS.
    const plain = await fetch(`http://127.0.0.1:${ports.http}/alerts?x=1`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe('https://127.0.0.1/alerts?x=1');

    // A login over HTTPS: the cookie is Secure because the proxy said the scheme was https.
    const login = await request('POST', `${API_PREFIX}/admin/login`, { 'content-type': 'application/json' }, JSON.stringify({ username: TEST_ADMIN.username, password: TEST_ADMIN.password }));
    expect(login.status, login.body).toBe(200);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^${AUTH_COOKIE}=`));
    expect(setCookie).toMatch(/;\s*Secure/i);
    const cookie = `${AUTH_COOKIE}=${(JSON.parse(login.body) as { token: string }).token}`;

    // The socket: a WebSocket upgrade through the proxy, authenticated by that cookie.
    const socket = connect(`https://127.0.0.1:${ports.https}`, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { cookie }, ca: ca.toString() });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      expect(socket.connected).toBe(true);
    } finally {
      socket.close();
    }

    // The largest site plan the server takes, through the proxy.
    const boundary = 'nginx-plan-boundary-5d1c';
    const points = JSON.stringify([
      { x: 20, y: 30, lat: 51.5, lng: -0.12 },
      { x: 380, y: 40, lat: 51.5, lng: -0.1148 },
      { x: 200, y: 280, lat: 51.4989, lng: -0.1174 },
    ]);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nWhole site\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="points"\r\n\r\n${points}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="site.png"\r\nContent-Type: image/png\r\n\r\n`),
      pngOfSize(SITE_PLAN_MAX_BYTES),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await request('POST', `${API_PREFIX}/site-plans`, { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) }, body);
    expect(uploaded.status, uploaded.body.slice(0, 300)).toBe(201);
    const image = await request('GET', `${API_PREFIX}/site-plans/${(JSON.parse(uploaded.body) as { id: number }).id}/image`, { cookie });
    expect(image.status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  }, 120_000);
});
