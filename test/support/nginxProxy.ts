import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const NGINX = '/usr/sbin/nginx';
export const nginxInstalled = () => existsSync(NGINX);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Debian's nginx as a reverse proxy on 127.0.0.1 in front of `upstream`, with a generated config
 * that sets nothing about buffers: large_client_header_buffers (4 8k), proxy_buffer_size (one
 * memory page) and the rest keep nginx's defaults, as on a fresh install.
 */
export async function startNginxProxy(upstream: string) {
  const dir = await mkdtemp(join(tmpdir(), 'nginx-proxy-'));
  // The workers (user nobody) create their temp directories in here.
  await chmod(dir, 0o755);
  const port = await freePort();
  const upstreamHost = new URL(upstream).host;
  const config = `daemon off;
master_process on;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${upstreamHost};
    }
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  // Bounded wait until it answers (any status: the upstream's 404 for /nginx-ready is fine).
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch (error) {
      if (attempt >= 50) throw new Error(`nginx did not answer on ${url}: ${String(error)} ${stderr}`);
      await sleep(100);
    }
  }
  return {
    url,
    dir,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT'); // graceful stop of the master and its worker
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
