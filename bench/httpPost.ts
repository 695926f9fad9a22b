import { request as httpRequest, type Agent, type ClientRequest } from 'node:http';

/**
 * One POST over a keep-alive agent, answering the status and the body's size. A server may close
 * an idle keep-alive socket just as the agent hands it to a new request (the race every keep-alive
 * client has); the request then fails with ECONNRESET or EPIPE. Such a request is sent once more
 * on a fresh socket; a reset on a fresh socket still fails the bench. The client can't tell whether
 * the server read the request before the socket went, but every route the bench posts to gives the
 * same answer to the same body (a paid one to the same PAYMENT-SIGNATURE, without a second charge),
 * so the retry cannot do the work twice. test/integration/bench-http-post.test.ts drops sockets.
 */
export async function post(
  agent: Agent,
  url: URL,
  payload: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number }> {
  try {
    return await postOnce(agent, url, payload, headers);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    return postOnce(agent, url, payload, headers);
  }
}

class StaleSocket extends Error {}

function postOnce(
  agent: Agent,
  url: URL,
  payload: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request: ClientRequest = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        timeout: 60_000,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
      },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${url.href}: no answer within 60 s`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      reject(stale ? new StaleSocket(`${url.href}: kept-alive socket closed by the server`, { cause: error }) : error);
    });
    request.end(payload);
  });
}
