// Compiles contracts/*.sol with solc-js (the `solc` npm package: no compiler download) into
// contracts/artifacts/<Name>.json = { contractName, compiler, sourceSha256, abi, deployedBytecode }.
// The artifacts are committed, so starting the service never compiles anything.
//
//   npx tsx scripts/build-contracts.ts          write the artifacts
//   npx tsx scripts/build-contracts.ts --check  exit 1 if an artifact is missing or out of date
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const contractsDir = fileURLToPath(new URL('../contracts/', import.meta.url));
const artifactsDir = fileURLToPath(new URL('../contracts/artifacts/', import.meta.url));

// Pinned so artifacts are reproducible. cancun: the EVM both anvil and Base run.
const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
};

interface SolcError {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}
interface SolcContract {
  abi: unknown[];
  evm: { deployedBytecode: { object: string } };
}
interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<string, Record<string, SolcContract>>;
}

function compile(sources: Record<string, string>): SolcOutput {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  for (const e of output.errors ?? []) console.error(e.formattedMessage);
  if (output.errors?.some((e) => e.severity === 'error')) throw new Error('solc reported errors');
  return output;
}

function renderArtifacts(): Map<string, string> {
  const files = readdirSync(contractsDir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const sources = Object.fromEntries(files.map((f) => [f, readFileSync(contractsDir + f, 'utf8')]));
  const output = compile(sources);
  const rendered = new Map<string, string>();
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    const sourceSha256 = createHash('sha256')
      .update(sources[file] ?? '')
      .digest('hex');
    for (const [contractName, c] of Object.entries(contracts)) {
      const artifact = {
        contractName,
        compiler: {
          version: solc.version() as string,
          settings: { optimizer: settings.optimizer, evmVersion: settings.evmVersion },
        },
        sourceSha256,
        abi: c.abi,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
      rendered.set(`${contractName}.json`, `${JSON.stringify(artifact, null, 2)}\n`);
    }
  }
  return rendered;
}

const check = process.argv.includes('--check');
const rendered = renderArtifacts();
let stale = 0;
if (!check) mkdirSync(artifactsDir, { recursive: true });
for (const [name, text] of rendered) {
  const path = artifactsDir + name;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (current === text) continue;
  if (check) {
    console.error(`out of date: contracts/artifacts/${name}`);
    stale++;
  } else {
    writeFileSync(path, text);
    console.log(`wrote contracts/artifacts/${name}`);
  }
}
if (stale > 0) {
  console.error('run: npx tsx scripts/build-contracts.ts');
  process.exit(1);
}
