import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Readiness } from '../readiness';
import { logCompleted, requestIdOf } from './kit/logging';
import type { ModuleId } from '../modules/ids';
import type { ModuleDefinition } from './kit/module';
import { sendError } from './kit/http';
import { NO_PARAMETERS, parameterError, urlParameterProblem } from './kit/query-parameters';

/** Where the build (`npm run build:console`) leaves the console: `console/dist` beside `src` and `dist`. */
export const CONSOLE_ROOT = path.resolve(__dirname, '../../console/dist');

/** What the console needs to find the suite: each module's port, and the audit API's. */
export interface ConsoleTargets {
  modules: readonly Pick<ModuleDefinition, 'id' | 'title' | 'shortTitle'>[];
  ports: Readonly<Record<ModuleId, number>>;
  auditPort: number;
}

export class ConsoleNotBuiltError extends Error {
  override name = 'ConsoleNotBuiltError';
  constructor(root: string) {
    super(`The console is not built (no ${path.join(root, 'index.html')}): run npm run build`);
  }
}

/** The console's process (`suite console`) is ready while it serves: it serves files and opens no store. */
export const servingFiles: Readiness = { check: async () => ({ status: 'ready', checks: {} }) };

export const consoleBuilt = (root: string = CONSOLE_ROOT): boolean =>
  existsSync(path.join(root, 'index.html'));

/**
 * The console: the built single-page app, `console-config.json` naming the ports it talks to, and
 * `index.html` for every other path (the app's own routes). It holds no credential and proxies nothing.
 * `console-config.json` takes no query parameter (400 naming one); the files ignore query strings.
 * Its port's guard sends its security headers (`portSecurity`): a policy from the configuration alone.
 */
export function createConsoleApp(
  targets: ConsoleTargets,
  logger: Logger,
  root: string = CONSOLE_ROOT,
): Express {
  if (!consoleBuilt(root)) throw new ConsoleNotBuiltError(root);
  const settings = {
    modules: targets.modules.map(({ id, title, shortTitle }) => ({
      id,
      title,
      shortTitle,
      port: targets.ports[id],
    })),
    audit: { port: targets.auditPort },
  };
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    const started = performance.now();
    const id = requestIdOf(req);
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => logCompleted(logger, req, id, res.statusCode, started));
    next();
  });
  app.get('/console-config.json', (req, res) => {
    const problem = urlParameterProblem(req.url, NO_PARAMETERS);
    if (problem) return void sendError(res, parameterError(problem, NO_PARAMETERS));
    res.set('Cache-Control', 'no-store').json(settings);
  });
  // Files take any query string: browsers and caches add their own (`?v=…`), and the app's routes
  // keep their state in theirs. Only the configuration above, which is data, refuses parameters.
  // File names under assets/ carry their content's hash: they may be kept for good.
  app.use('/assets', express.static(path.join(root, 'assets'), { immutable: true, maxAge: '1y' }));
  // The page names the current assets: a browser asks again whether it changed each time it loads it.
  const pageRevalidated = (res: ServerResponse, file: string) => {
    if (path.extname(file) === '.html') res.setHeader('Cache-Control', 'no-cache');
  };
  app.use(express.static(root, { index: false, setHeaders: pageRevalidated }));
  app.get('/{*path}', (req, res) => {
    if (path.extname(req.path) !== '') return void res.status(404).type('text/plain').send('Not found');
    res.set('Cache-Control', 'no-cache').sendFile(path.join(root, 'index.html'));
  });
  return app;
}
