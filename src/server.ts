import type { MikroORM } from '@mikro-orm/postgresql';
import express from 'express';
import { createRestRouter, notFoundHandler, problemHandler } from '../rest-adapter/router.ts';
import { createGraphqlHandler } from './graphql/yoga.ts';
import { requestContext } from './http/request-context.ts';
import type { AppServices } from './context.ts';
import type { Logger } from './logger.ts';

export type AppDependencies = { orm: MikroORM; logger: Logger; services: AppServices };

/** The whole HTTP surface: health, GraphQL (Yoga + GraphiQL) and the REST compatibility layer. */
export function buildApp({ orm, logger, services }: AppDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.use(requestContext(orm, services));
  const yoga = createGraphqlHandler(logger);
  // Yoga is a request listener; Express takes it as middleware at its endpoint.
  app.use(yoga.graphqlEndpoint, yoga as unknown as express.RequestHandler);
  app.use(createRestRouter());

  app.use(notFoundHandler);
  app.use(problemHandler(logger));
  return app;
}
