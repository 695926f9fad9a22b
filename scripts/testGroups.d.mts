/** scripts/testGroups.mjs: several test files of a tier in one process. */
export function packGroups(
  files: { name: string; wall: number }[],
  options: { wallPerGroup: number; alone?: string[] },
): string[][];
export function writeGroupEntry(path: string, files: [name: string, bundle: string][], figuresPath: string): void;
export function figuresOfGroup(
  files: string[],
  figuresPath: string,
  cpu: number,
): Record<string, [wall: number, cpu: number]>;
export function groupEntryPath(outdir: string, index: number): string;
export function readJsonLines(path: string): unknown[];
/** The Symbol.for key of the function a group's entry sets on globalThis to close what its files share. */
export const AT_PROCESS_END_KEY: string;
