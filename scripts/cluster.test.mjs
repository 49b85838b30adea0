// The HAProxy configuration `npm run cluster` writes: every field filled, a server line per process in each backend,
// and valid for HAProxy itself (`haproxy -c`) where it is installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { haproxyConfig, stopReason } from './cluster.mjs';

const nodes = [1, 2, 3].map((k) => ({ name: `node-${k}`, address: '127.0.0.1', port: 3000 + k, osmandPort: 5100 + k }));
const config = haproxyConfig({ host: '127.0.0.1', port: 8080, osmandPort: 5055, statsPort: 8404, nodes });
const haproxy = spawnSync('haproxy', ['-v']).status === 0 ? 'haproxy' : null;

describe('haproxyConfig', () => {
  it('fills every field and lists each process in each backend', () => {
    expect(config).not.toMatch(/\{\{/);
    expect(config).toContain('bind 127.0.0.1:8080');
    expect(config).toContain('bind 127.0.0.1:5055');
    for (const node of nodes) {
      // In backend app and in backend app_alive, pinned by its cookie; the OsmAnd server follows the app's check.
      expect(config.split(`server ${node.name} 127.0.0.1:${node.port} check cookie ${node.name}`)).toHaveLength(3);
      expect(config).toContain(`server ${node.name} 127.0.0.1:${node.osmandPort} track app/${node.name}`);
      expect(config).toContain(`server ${node.name} 127.0.0.1:${node.osmandPort} track app_alive/${node.name}`);
    }
    expect(config).toContain('balance url_param id check_post');
    expect(config).toContain('cookie SERVERID insert indirect nocache');
    expect(config).toMatch(/timeout tunnel \d+h/);
  });

  it.skipIf(!haproxy)('is a valid HAProxy configuration (haproxy -c)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'haproxy-check-'));
    try {
      const file = path.join(dir, 'haproxy.cfg');
      writeFileSync(file, config);
      const check = spawnSync(haproxy, ['-c', '-f', file], { encoding: 'utf8' });
      expect(check.stdout + check.stderr).toContain('Configuration file is valid');
      expect(check.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stopReason', () => {
  it("names why a process stopped: its refusal of a port, or its last error's message", () => {
    const refusal = 'cannot listen on OSMAND_PORT 5101 (the OsmAnd device port): another program is already listening on it (EADDRINUSE); the process stops';
    expect(stopReason(refusal)).toBe(refusal);
    expect(stopReason('{"level":60,"msg":"migration failed"}')).toBe('migration failed');
    expect(stopReason('{"level":40,"msg":"Redis at 127.0.0.1:6379 does not answer"}')).toBeNull();
    expect(stopReason('plain output')).toBeNull();
  });
});
