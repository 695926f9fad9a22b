import { startPreviewServer } from './previewServer.js';

/** Starts the app once for every spec; the returned function stops it when the run ends. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = await startPreviewServer();
  // Workers start after this and inherit the environment.
  process.env.PREVIEW_TEST_URL = server.url;
  process.env.PREVIEW_TEST_TEMPLATES = server.templatesRoot;
  return () => server.close();
}
