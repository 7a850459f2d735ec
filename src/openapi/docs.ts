import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Request, type Response, Router } from 'express';

/**
 * GET /docs: an interactive reference of the REST layer (Scalar) over /openapi.json. Everything
 * the page loads comes from this service — Scalar's standalone browser bundle out of the npm
 * package, a small start script — so it works without internet access.
 */

export const DOCS_PATH = '/docs';
export const OPENAPI_PATH = '/openapi.json';
const ASSETS = `${DOCS_PATH}/assets`;

/** Scalar's browser bundle (it carries its own styles), from `@scalar/api-reference`'s dist. */
function scalarBundle(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  const bundle = join(dirname(entry), 'browser', 'standalone.js');
  if (!existsSync(bundle)) throw new Error(`Scalar's standalone bundle is not at ${bundle}`);
  return bundle;
}

/** Scalar's settings: the document of this service, and nothing fetched from elsewhere. */
const configuration = {
  url: OPENAPI_PATH,
  title: 'Consent domain configuration service',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  agent: { disabled: true },
  mcp: { disabled: true },
  authentication: { preferredSecurityScheme: 'bearer' },
};

const START_SCRIPT = `Scalar.createApiReference('#app', ${JSON.stringify(configuration)});\n`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>REST API reference — consent domain configuration service</title>
  </head>
  <body>
    <noscript>This reference needs JavaScript. The OpenAPI document itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
    <div id="app"></div>
    <script src="${ASSETS}/standalone.js"></script>
    <script src="${ASSETS}/start.js"></script>
  </body>
</html>
`;

/** The page and its assets; mount it at DOCS_PATH. */
export function docsRouter(): Router {
  const bundle = scalarBundle();
  const router = Router({ caseSensitive: true, strict: false });
  router.get('/', (_req: Request, res: Response) => {
    res.type('html').send(PAGE);
  });
  router.get('/assets/start.js', (_req: Request, res: Response) => {
    res.type('text/javascript').send(START_SCRIPT);
  });
  // The bundle's source map sits beside it, for browser developer tools.
  for (const file of ['standalone.js', 'standalone.js.map']) {
    const path = file === 'standalone.js' ? bundle : `${bundle}.map`;
    router.get(`/assets/${file}`, (_req: Request, res: Response, next) => {
      res.sendFile(path, { maxAge: '1d', dotfiles: 'allow' }, (error) => error && next(error));
    });
  }
  return router;
}
