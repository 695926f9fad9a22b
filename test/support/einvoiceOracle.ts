import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { needsShared, SHARED_EINVOICE } from './sharedFolder.js';

/**
 * The official EN 16931 artefacts beside the checkout (../shared/einvoice, see its README): the
 * CEN schematron and the Factur-X / UBL XSDs behind `check-xml`. They are not part of the project;
 * where the folder is absent (a user's clone) the tests that need it say so and skip.
 */
export const EINVOICE_ORACLE = SHARED_EINVOICE;
const checkXml = join(EINVOICE_ORACLE, 'check-xml');

/** false when the oracle is there, else the reason to give node:test's `skip`. */
export const oracleMissing = needsShared('check-xml');

export interface OracleResult {
  status: number | null;
  output: string;
  /** The summary line: "einvoice: F files, N fatal, M warning". */
  summary: string;
  fatal: number;
  files: number;
}

/** check-xml's kinds: EN 16931 alone, and the national rule sets on top of it. */
export type OracleKind =
  | 'cii'
  | 'ubl'
  | 'xrechnung-cii'
  | 'xrechnung-ubl'
  | 'peppol-ubl'
  | 'fr-cii'
  | 'fr-ubl'
  | 'pint-eu'
  | 'pint-aunz'
  | 'pint-sg'
  | 'pint-jp'
  | 'pint-my'
  | 'pint-ae'
  | 'hr-ubl'
  | 'ksef-fa3'
  | 'fatturapa'
  | 'verifactu';

/**
 * The JVM of check-xml with the client compiler alone and the serial collector: a run is a few
 * seconds of Saxon over a few hundred files, where the optimising compiler's and G1's threads cost
 * more CPU than they save. Measured on 210 generated files (one check-xml call each, same load):
 * pint-eu 16.7 -> 12.1 s of CPU, hr-ubl 12.8/16.1 -> 7.2/8.3 s; the same summaries. Nothing the
 * oracle checks changes, only how the JVM compiles it.
 */
const LEAN_JVM = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs check-xml on a file or a folder of *.xml (one JVM for the folder). */
export function runCheckXml(syntax: OracleKind, path: string): OracleResult {
  const javaOptions = [process.env.JAVA_TOOL_OPTIONS, LEAN_JVM].filter(Boolean).join(' ');
  const run = spawnSync(checkXml, [syntax, path], {
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, JAVA_TOOL_OPTIONS: javaOptions },
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const summary = /einvoice: (\d+) files, (\d+) fatal[^\n]*/.exec(output);
  return {
    status: run.status,
    output,
    summary: summary?.[0] ?? '',
    files: Number(summary?.[1] ?? -1),
    fatal: Number(summary?.[2] ?? -1),
  };
}
