// The signer-recovery thread (signerRecovery.ts): recovers the address that signed a hash, with
// viem (secp256k1 in JavaScript, @noble/curves). Plain JavaScript, so that it runs as is under tsx
// (a worker thread has no TypeScript loader) and built (scripts/build.mjs copies it beside the
// compiled code). Posts 'ready' once loaded; told { id, hash, signature }, answers { id, address }
// or { id, error }.
import { parentPort } from 'node:worker_threads';
import { recoverAddress } from 'viem/utils';

parentPort.on('message', async ({ id, hash, signature }) => {
  try {
    parentPort.postMessage({ id, address: await recoverAddress({ hash, signature }) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage('ready');
