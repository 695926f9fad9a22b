import { request as httpRequest, type Agent, type ClientRequest } from 'node:http';

/**
 * One POST over a keep-alive agent, answering the status and the body's size. A server may close
 * an idle keep-alive socket just as the agent hands it to a new request (the race every keep-alive
 * client has); the request then fails with ECONNRESET before the server read it. Such a request is
 * sent once more on a fresh socket: only then, so that a reset of a request the server did read
 * still fails the bench. Every route the bench posts to is idempotent for the same body (a paid
 * one for the same PAYMENT-SIGNATURE), so the retry cannot do the work twice.
 */
export async function post(agent: Agent, url: URL, payload: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number }> {
  try {
    return await postOnce(agent, url, payload, headers);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    return postOnce(agent, url, payload, headers);
  }
}

class StaleSocket extends Error {}

function postOnce(agent: Agent, url: URL, payload: Buffer, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const request: ClientRequest = httpRequest(
      url,
      { method: 'POST', agent, timeout: 60_000, headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers } },
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
