import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { CSRF_HEADER } from '../hardening.ts';

/**
 * GraphiQL at GET /graphql for browsers, served entirely from this service (no CDN): the page,
 * React and GraphiQL from their npm packages, and a start script. It opens with example
 * operations for the common tasks.
 */

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => join(dirname(require.resolve(`${name}/package.json`)), file);

const ASSETS: Record<string, string> = {
  'react.js': packageFile('react', 'umd/react.production.min.js'),
  'react-dom.js': packageFile('react-dom', 'umd/react-dom.production.min.js'),
  'graphiql.js': packageFile('graphiql', 'graphiql.min.js'),
  'graphiql.css': packageFile('graphiql', 'graphiql.min.css'),
  'start.js': new URL('./start.js', import.meta.url).pathname,
};

const EXAMPLES = readFileSync(new URL('./examples.graphql', import.meta.url), 'utf8');

/** JSON that may sit inside a <script> element. */
const scriptSafe = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function page(title: string): string {
  const options = {
    endpoint: '/graphql',
    csrfHeader: CSRF_HEADER,
    defaultQuery: EXAMPLES,
    defaultHeaders: JSON.stringify({ Authorization: 'Bearer <your API key>' }, null, 2),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/graphiql/graphiql.css">
<style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script id="graphiql-options" type="application/json">${scriptSafe(options)}</script>
<script src="/graphiql/react.js"></script>
<script src="/graphiql/react-dom.js"></script>
<script src="/graphiql/graphiql.js"></script>
<script src="/graphiql/start.js"></script>
</body>
</html>`;
}

/** Whether a request is a browser asking for the page (not a GraphQL operation). */
export const wantsGraphiql = (req: Request) =>
  req.method === 'GET' && req.accepts(['application/json', 'text/html']) === 'text/html' && !req.query.query;

export function graphiql(title: string): Router {
  const router = Router();
  const html = page(title);
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

