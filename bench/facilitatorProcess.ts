// The local payment network (a local chain and its facilitator, src/payment/local/) in a process
// of its own, so that a bench measuring the service's event loop does not count the facilitator's
// verify and settle work: in production the facilitator is remote. Run as a child by
// startFacilitatorProcess below; it prints the network's address as one JSON line and stops when
// its parent closes its stdin.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { DevKey } from '../src/payment/local/devAccounts.js';
import { startLocalPaymentNetwork } from '../src/payment/local/localPaymentNetwork.js';
import { nodeArgsOf } from '../test/support/childEntry.js';

export interface FacilitatorProcess {
  facilitatorUrl: string;
  payTo: `0x${string}`;
  /** The funded buyers of the local chain (keys of the public anvil test mnemonic). */
  buyers: DevKey[];
  close(): Promise<void>;
}

/** Starts this file as a child process and waits for its address line (60 s at most). */
export async function startFacilitatorProcess(): Promise<FacilitatorProcess> {
  const child = spawn(process.execPath, [...nodeArgsOf(new URL(import.meta.url)), '--child'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the facilitator process did not start within 60 s')), 60_000);
    createInterface({ input: child.stdout! }).once('line', (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`the facilitator process exited (${code})`)));
  });
  const { facilitatorUrl, payTo, buyers } = JSON.parse(line) as Omit<FacilitatorProcess, 'close'>;
  return {
    facilitatorUrl,
    payTo,
    buyers,
    async close() {
      child.stdin!.end();
      await exited;
    },
  };
}

if (process.argv.includes('--child')) {
  const net = await startLocalPaymentNetwork({});
  process.stdout.write(
    `${JSON.stringify({ facilitatorUrl: net.facilitatorUrl, payTo: net.payTo, buyers: net.buyers })}\n`,
  );
  process.stdin.resume();
  process.stdin.once('end', () => void net.close().then(() => process.exit(0)));
}
