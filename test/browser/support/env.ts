/** Where the global set-up's server listens, and the templates folder it watches. */
export const BASE_URL = required('PREVIEW_TEST_URL');
export const TEMPLATES_ROOT = required('PREVIEW_TEST_TEMPLATES');

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the browser tests with \`npx playwright test\` (its global set-up starts the server)`,
    );
  return value;
}

/** Every request the page made went to the app itself (or stayed inside the page): no CDN, nothing external. */
export function isOwnRequest(url: string): boolean {
  return url.startsWith(`${BASE_URL}/`) || url.startsWith('data:') || url.startsWith('blob:') || url === 'about:srcdoc';
}
