// Reading the local chain of `npm run test:replicas`. Its RPC listens on the payment-network
// container's own loopback, so the reads run inside that container (`docker exec … node`).
import { must } from '../docker/commands.mjs';

// Runs in the container: one JSON-RPC call to the chain.
const RPC = `const rpc = async (method, params) => (await (await fetch('http://127.0.0.1:' + (process.env.LOCAL_CHAIN_PORT || 8545), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()).result;`;

const inContainer = async (pn, script, args = []) =>
  (await must('docker', ['exec', pn, 'node', '--input-type=module', '-e', script, ...args], { timeoutMs: 60_000 }))
    .trim()
    .split('\n')
    .pop();

/** The chain's current block number (hex): where the run's settlements start. */
export async function chainHead(pn) {
  return inContainer(pn, `${RPC} console.log(await rpc('eth_blockNumber', []));`);
}

/**
 * Since `fromBlock`, the asset's AuthorizationUsed logs (one per settled authorization) and its
 * Transfer logs to payTo.
 */
export async function chainLogs(pn, asset, payTo, fromBlock) {
  const { keccak256, toHex, pad } = await import('viem');
  const used = keccak256(toHex('AuthorizationUsed(address,bytes32)'));
  const transfer = keccak256(toHex('Transfer(address,address,uint256)'));
  const script = `
    const [asset, fromBlock, used, transfer, payTo] = process.argv.slice(1);
    ${RPC}
    const used_ = await rpc('eth_getLogs', [{ address: asset, fromBlock, toBlock: 'latest', topics: [used] }]);
    const transfers = await rpc('eth_getLogs', [{ address: asset, fromBlock, toBlock: 'latest', topics: [transfer, null, payTo] }]);
    console.log(JSON.stringify({ used: used_, transfers }));`;
  return JSON.parse(await inContainer(pn, script, [asset, fromBlock, used, transfer, pad(payTo.toLowerCase())]));
}
