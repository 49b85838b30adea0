// The deploy files shipped in the release (decision 061): the systemd unit is complete (its own user, no build at
// start, restart on failure, sandboxed with the data folder writable, [Install]); the env example is a configuration
// the server accepts and ships no password (decision 094); the TLS proxy example forwards the scheme that makes the
// session cookie Secure.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_PLAN_MAX_BYTES } from '../packages/shared/src/site-plan.ts';
import { CONFIG_VARIABLES, loadConfig } from '../apps/server/src/config.ts';
import { ConfigError } from '../apps/server/src/lib/config-problems.ts';

const deploy = path.resolve(import.meta.dirname, '../deploy');
const read = (file) => readFileSync(path.join(deploy, file), 'utf8');

/** A unit file's sections: { Service: { User: ['x'], ... } } (a key may repeat). */
function parseUnit(text) {
  const sections = {};
  let current = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) sections[(current = section[1])] = {};
    else {
      const [key, ...value] = line.split('=');
      (sections[current][key] ??= []).push(value.join('='));
    }
  }
  return sections;
}

/** KEY=value lines of an env file, double quotes removed as systemd and sh do. */
const parseEnv = (text) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => {
        const [key, ...value] = line.split('=');
        return [key, value.join('=').replace(/^"(.*)"$/, '$1')];
      }),
  );

describe('deploy/prison-tracker.service', () => {
  const unit = parseUnit(read('prison-tracker.service'));

  it('has [Unit], [Service] and [Install] wanted by multi-user.target', () => {
    expect(Object.keys(unit).sort()).toEqual(['Install', 'Service', 'Unit']);
    expect(unit.Install.WantedBy).toEqual(['multi-user.target']);
  });

  it('runs the compiled server as its own user, with no build and no TypeScript at start, restarted on failure', () => {
    const service = unit.Service;
    expect(service.User?.[0]).toMatch(/^[a-z][a-z-]+$/);
    expect(service.User[0]).not.toBe('root');
    expect(service.WorkingDirectory).toHaveLength(1);
    expect(service.EnvironmentFile).toHaveLength(1);
    expect(service.ExecStart).toHaveLength(1);
    expect(service.ExecStartPre).toBeUndefined();
    expect(service.ExecStart[0]).not.toMatch(/npm|tsx|build|vite/);
    expect(service.Restart).toEqual(['on-failure']);
    // A refused configuration or start (status 2) is not retried every RestartSec.
    expect(service.RestartPreventExitStatus).toEqual(['2']);
    // start.sh runs node apps/server/dist/server.js, nothing else.
    const release = readFileSync(path.resolve(import.meta.dirname, 'release.mjs'), 'utf8');
    expect(release).toContain('exec node apps/server/dist/server.js');
  });

  it('is sandboxed: no new privileges, the system read-only but the data folder', () => {
    const service = unit.Service;
    expect(service.NoNewPrivileges).toEqual(['true']);
    expect(service.ProtectSystem).toEqual(['strict']);
    const dataDir = service.Environment.find((e) => e.startsWith('DATA_DIR=')).slice('DATA_DIR='.length);
    expect(service.ReadWritePaths.some((dir) => dataDir.startsWith(`${dir}/`))).toBe(true);
  });
});

describe('deploy/prison-tracker.env', () => {
  const env = parseEnv(read('prison-tracker.env'));

  it('names only settings the server knows, and the server accepts it', () => {
    for (const key of Object.keys(env)) expect(CONFIG_VARIABLES, key).toContain(key);
    const config = loadConfig(env);
    expect(config.COOKIE_SECURE).toBe(true);
    expect(config.TRUST_PROXY).toBeTruthy();
    expect(config.DATA_DIR).toBe('/var/lib/prison-tracker/data');
  });

  it('ships no usable password: ADMIN_PASSWORD is empty (a generated one, changed at the first login)', () => {
    expect(env).toHaveProperty('ADMIN_PASSWORD', '');
    expect(loadConfig(env).ADMIN_PASSWORD).toBeUndefined();
    // The placeholder it used to ship stops the start, naming the variable.
    const refusal = (() => {
      try {
        loadConfig({ ...env, ADMIN_PASSWORD: 'change this long passphrase' });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    expect(refusal.problems).toEqual([expect.stringMatching(/^ADMIN_PASSWORD must be a password of your own: .* \(value hidden\)$/)]);
  });
});

describe('deploy/nginx-tls.conf', () => {
  const conf = read('nginx-tls.conf');

  it('terminates TLS, redirects plain HTTP and forwards the scheme and the client address', () => {
    expect(conf).toMatch(/listen 443 ssl\b/);
    expect(conf).toMatch(/return 301 https:\/\//);
    expect(conf).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    expect(conf).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(conf).toContain('proxy_set_header Upgrade $http_upgrade;');
  });

  it("allows the largest upload the server accepts, and uses no directive Debian 12's nginx 1.22 lacks", () => {
    // The real nginx loads it and carries a 20 MiB upload: apps/server/test/nginx-tls.test.ts.
    const [, size, unit] = /client_max_body_size (\d+)([km]?);/.exec(conf);
    const bytes = Number(size) * { '': 1, k: 1024, m: 1024 * 1024 }[unit];
    expect(bytes).toBeGreaterThan(SITE_PLAN_MAX_BYTES);
    expect(conf).not.toMatch(/^\s*http2 on;/m);
  });
});
