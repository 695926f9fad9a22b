// The ECDSA thread (ecdsaThread.ts): recovers the address that signed a hash, or signs a hash with
// a key, with viem (secp256k1 in JavaScript, @noble/curves). Plain JavaScript, so that it runs as
// is under tsx (a worker thread has no TypeScript loader) and built (scripts/build.mjs copies it
// beside the compiled code). Posts 'ready' once loaded; told { id, hash, signature } (recover) or
// { id, hash, privateKey } (sign), answers { id, value } or { id, error }.
import { parentPort } from 'node:worker_threads';
import { sign } from 'viem/accounts';
import { recoverAddress } from 'viem/utils';

parentPort.on('message', async ({ id, hash, signature, privateKey }) => {
  try {
    const value = privateKey ? await sign({ hash, privateKey, to: 'hex' }) : await recoverAddress({ hash, signature });
    parentPort.postMessage({ id, value });
  } catch (error) {
    // Never the key in an answer: a signing failure says only that it failed.
    const message = privateKey ? 'signing failed' : error instanceof Error ? error.message : String(error);
    parentPort.postMessage({ id, error: message });
  }
});
parentPort.postMessage('ready');
