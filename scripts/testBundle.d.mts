/** scripts/testBundle.mjs: the files (relative to root) bundled by esbuild; each one's bundle path, and a function that removes them. */
export function bundleTests(
  root: string,
  files: string[],
): Promise<{ bundleOf(file: string): string; outdir: string; remove(): void }>;
