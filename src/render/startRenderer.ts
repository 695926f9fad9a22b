import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createRenderer, type Renderer } from './renderer.js';

/** The renderer as configured: one pooled Chromium, templates watched in development. */
export function startRenderer(config: Config, logger: Logger): Promise<Renderer> {
  return createRenderer({
    ...(config.CHROMIUM_PATH ? { executablePath: config.CHROMIUM_PATH } : {}),
    sandbox: config.CHROMIUM_SANDBOX === 'on',
    poolSize: config.RENDER_POOL_SIZE,
    queueLimit: config.RENDER_QUEUE_LIMIT,
    renderTimeoutMs: config.RENDER_TIMEOUT_MS,
    maxRendersPerBrowser: config.BROWSER_MAX_RENDERS,
    paperSize: config.PAPER_SIZE,
    watchTemplates: config.NODE_ENV === 'development',
    log: (event) => logger.info(event, 'renderer'),
  });
}
