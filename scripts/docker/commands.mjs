// Runs the commands the Docker tests drive (docker, Compose, npm) from the repository's root.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Failure, seconds } from './checks.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Runs a command to completion; its output is returned, not shown. Asynchronous on purpose: a
 * blocked event loop would keep the HTTP client's idle connections past the load balancer's
 * keep-alive timeout (the next request would meet a connection the other side has closed), and the
 * replica test's paying clients keep buying while docker commands run.
 */
export function run(command, args, { timeoutMs = 120_000, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const finish = (status, error) => {
      clearTimeout(timer);
      resolve({
        status,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        error,
      });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code, signal) =>
      finish(code, signal ? new Error(`killed by ${signal} (timeout ${seconds(timeoutMs)})`) : undefined),
    );
  });
}

/** As `run`, and a Failure with the output's last lines when the command does not exit with 0. */
export async function must(command, args, options) {
  const result = await run(command, args, options);
  if (result.status !== 0)
    throw new Failure(
      `${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${(result.stderr || result.stdout).trim().split('\n').slice(-25).join('\n')}`,
    );
  return result.stdout;
}

/** `docker inspect` of one container or image. */
export async function inspect(id) {
  return JSON.parse(await must('docker', ['inspect', id], { timeoutMs: 20_000 }))[0];
}
