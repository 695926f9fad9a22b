import { importEntry } from '../../support/childEntry.js';

/** Starts the app once for every spec; the returned function stops it when the run ends. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // From npm test's bundle when it built one (test/support/childEntry.ts): Playwright compiles no app.
  const { startPreviewServer } = await importEntry<typeof import('./previewServer.js')>(
    new URL('./previewServer.ts', import.meta.url),
  );
  const server = await startPreviewServer();
  // Workers start after this and inherit the environment.
  process.env.PREVIEW_TEST_URL = server.url;
  process.env.PREVIEW_TEST_TEMPLATES = server.templatesRoot;
  return () => server.close();
}
