import { readFileSync } from 'node:fs';
import { isHex } from 'viem';

// Built by scripts/build-contracts.ts and committed: start-up reads them, it never compiles.
const artifactsDir = new URL('../../../contracts/artifacts/', import.meta.url);

export type ContractName = 'TestUSDC' | 'Multicall3';

/** Runtime bytecode, as placed with anvil_setCode (no constructor runs). */
export function deployedBytecode(name: ContractName): `0x${string}` {
  const file = new URL(`${name}.json`, artifactsDir);
  const artifact: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const code =
    typeof artifact === 'object' && artifact !== null && 'deployedBytecode' in artifact
      ? artifact.deployedBytecode
      : undefined;
  if (typeof code !== 'string' || !isHex(code) || code.length <= 2) {
    throw new Error(`${file.pathname}: no deployedBytecode; run npx tsx scripts/build-contracts.ts`);
  }
  return code;
}
