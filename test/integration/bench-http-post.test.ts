import assert from 'node:assert/strict';
import { Agent, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { post } from '../../bench/httpPost.js';

/**
 * The bench's HTTP client (bench/httpPost.ts) against a server that drops a kept-alive socket just
 * as a request arrives on it, the race that made `npm run bench` fail with "socket hang up": such a
 * request is sent again on a fresh socket; a reset on a fresh socket is not retried.
 */
let server: Server;
let url: URL;
let requests = 0;
/** Which request numbers of a socket the server drops without answering (1 = a socket's first). */
let dropOnSocketRequest = new Set<number>();

before(async () => {
  server = createServer((request, response) => {
    requests++;
    const socket = request.socket as typeof request.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    request.resume();
    request.on('end', () => {
      if (dropOnSocketRequest.has(socket.served!)) return socket.destroy();
      response.end('pdf');
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/invoice.pdf`);
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('a request on a kept-alive socket the server dropped is sent again on a fresh socket', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    requests = 0;
    dropOnSocketRequest = new Set([2]);
    assert.deepEqual(await post(agent, url, Buffer.from('{}')), { status: 200, bytes: 3 });
    // The second request reuses the socket; the server drops it; the retry gets a new socket.
    assert.deepEqual(await post(agent, url, Buffer.from('{}')), { status: 200, bytes: 3 });
    assert.equal(requests, 3);
  } finally {
    agent.destroy();
  }
});

test('a reset on a fresh socket fails: nothing is retried that was not a reused socket', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    requests = 0;
    dropOnSocketRequest = new Set([1]);
    await assert.rejects(post(agent, url, Buffer.from('{}')), /socket hang up|ECONNRESET/);
    assert.equal(requests, 1);
  } finally {
    agent.destroy();
    dropOnSocketRequest = new Set();
  }
});
