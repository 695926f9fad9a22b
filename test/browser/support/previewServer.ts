import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { createRenderer, type Renderer } from '../../../src/render/renderer.js';
import { PROJECT_ROOT } from '../../../src/render/templates.js';

export interface PreviewServer {
  url: string;
  /** A copy of templates/ and styles/ that the app and its renderer read and watch: tests edit it. */
  templatesRoot: string;
  close(): Promise<void>;
}

/**
 * The real app in development mode (preview on) with a real renderer, on 127.0.0.1 and a free
 * port. Payments are not started: the preview does not need them. Templates come from a temporary
 * copy so that a test can edit them without touching the repository.
 */
export async function startPreviewServer(): Promise<PreviewServer> {
  const templatesRoot = mkdtempSync(join(tmpdir(), 'invoice-preview-templates-'));
  cpSync(join(PROJECT_ROOT, 'templates'), join(templatesRoot, 'templates'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'styles'), join(templatesRoot, 'styles'), { recursive: true });

  const config = loadConfig({
    NODE_ENV: 'development',
    PREVIEW: 'on',
    LOG_LEVEL: process.env.PREVIEW_LOG_LEVEL ?? 'silent',
    PORT: '0',
    RENDER_POOL_SIZE: '2',
  });
  const logger = createLogger(config.LOG_LEVEL);
  const removeTemplates = () => rmSync(templatesRoot, { recursive: true, force: true });
  let renderer: Renderer;
  try {
    renderer = await createRenderer({
      poolSize: config.RENDER_POOL_SIZE,
      renderTimeoutMs: 20_000,
      watchTemplates: true,
      templatesRoot,
      log: (event) => logger.info(event, 'renderer'),
    });
  } catch (error) {
    removeTemplates();
    throw error;
  }
  const { app, close: closeApp } = createApp({ config, logger, renderer, preview: { renderer } });
  const server = app.listen(0, '127.0.0.1');
  const close = async () => {
    await closeApp();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await renderer.close();
    removeTemplates();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    await close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, templatesRoot, close };
}
