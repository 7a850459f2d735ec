import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { CSRF_HEADER } from '../hardening.ts';

/**
 * GraphiQL at GET /graphql for browsers, served entirely from this service (no CDN): the page,
 * React and GraphiQL from their npm packages, a start script and a stylesheet. It opens with a
 * bar asking for the API key (start.js) and example operations for the common tasks.
 */

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => join(dirname(require.resolve(`${name}/package.json`)), file);

const ASSETS: Record<string, string> = {
  'react.js': packageFile('react', 'umd/react.production.min.js'),
  'react-dom.js': packageFile('react-dom', 'umd/react-dom.production.min.js'),
  'graphiql.js': packageFile('graphiql', 'graphiql.min.js'),
  'graphiql.css': packageFile('graphiql', 'graphiql.min.css'),
  'start.js': fileURLToPath(new URL('./start.js', import.meta.url)),
  'page.css': fileURLToPath(new URL('./page.css', import.meta.url)),
};

/**
 * Where the page loads an asset from: its address carries a digest of its content, so a browser
 * that keeps assets for a day still loads a new start script or GraphiQL after an upgrade.
 */
function assetAddresses(): (name: string) => string {
  const addresses = new Map(
    Object.entries(ASSETS).map(([name, file]) => [
      name,
      `/graphiql/${name}?v=${createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12)}`,
    ]),
  );
  return (name) => addresses.get(name)!;
}

const EXAMPLES = readFileSync(new URL('./examples.graphql', import.meta.url), 'utf8');

/** JSON that may sit inside a <script> element. */
const scriptSafe = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function page(title: string, asset: (name: string) => string): string {
  const options = {
    endpoint: '/graphql',
    csrfHeader: CSRF_HEADER,
    defaultQuery: EXAMPLES,
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${asset('graphiql.css')}">
<link rel="stylesheet" href="${asset('page.css')}">
</head>
<body>
<div id="graphiql"><p class="graphiql-loading">Loading GraphiQL…</p></div>
<noscript><p class="graphiql-loading">GraphiQL needs JavaScript. GraphQL itself answers at POST /graphql with an API key (Authorization: Bearer …).</p></noscript>
<script id="graphiql-options" type="application/json">${scriptSafe(options)}</script>
<script src="${asset('react.js')}"></script>
<script src="${asset('react-dom.js')}"></script>
<script src="${asset('graphiql.js')}"></script>
<script src="${asset('start.js')}"></script>
</body>
</html>`;
}

/** Whether a request is a browser asking for the page (not a GraphQL operation). */
const wantsGraphiql = (req: Request) =>
  req.method === 'GET' && req.accepts(['application/json', 'text/html']) === 'text/html' && !req.query.query;

export function graphiql(title: string): Router {
  const router = Router();
  const html = page(title, assetAddresses());
  router.get('/graphql', (req: Request, res: Response, next: NextFunction) => {
    if (!wantsGraphiql(req)) return next();
    res.type('html').send(html);
  });
  for (const [name, file] of Object.entries(ASSETS)) {
    router.get(`/graphiql/${name}`, (_req, res) => {
      res.sendFile(file, { maxAge: '1d' });
    });
  }
  return router;
}

