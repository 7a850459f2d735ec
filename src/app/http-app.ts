import type { MikroORM } from '@mikro-orm/postgresql';
import express from 'express';
import { createRestRouter } from '../../rest-adapter/router.ts';
import { restRoutes } from '../../rest-adapter/routes.ts';
import { readJsonBody } from '../http/body.ts';
import { notFoundHandler, problemHandler } from '../http/problems.ts';
import { features } from '../features/index.ts';
import { BANNER_PATH_PREFIXES, bannerFastPath, bannerRouter } from '../features/banner/banner.routes.ts';
import { consentIntakeRouter } from '../features/consents/consent-intake.routes.ts';
import type { RequestListener } from 'node:http';
import type { AppServices } from '../kernel/context.ts';
import { graphiql } from '../graphql/graphiql/page.ts';
import { createGraphqlHandler } from '../graphql/yoga.ts';
import { schema } from './graphql-schema.ts';
import { authentication } from '../http/authentication.ts';
import { corsFor, rateLimitBannerMisses, rateLimitConsentIntake, rateLimitFailedAuthentication, rateLimitPerKey, rateLimitScriptReports, securityHeaders } from '../http/hardening.ts';
import { SCRIPT_REPORT_PATH, scriptReportRouter } from '../features/script-findings/script-report.routes.ts';
import { requestLogging } from '../http/logging.ts';
import { BACKUP_PATH, backupHandler } from '../http/backup.ts';
import { traceRequests } from '../http/tracing.ts';
import { tracingEnabled } from '../kernel/tracing.ts';
import { inSequence } from '../http/in-sequence.ts';
import { onlyUnder } from '../http/path-gate.ts';
import { autoCreateRouter } from '../features/banner/auto-create/auto-create.routes.ts';
import { createDomainAutoCreator } from '../features/banner/auto-create/auto-create-domains.ts';
import type { Metrics } from '../http/metrics.ts';
import { readiness } from '../http/readiness.ts';
import { requestContext, requestId } from '../http/request-context.ts';
import type { Logger } from '../logger.ts';
import { DOCS_PATH, docsRouter, OPENAPI_PATH } from '../openapi/docs.ts';
import { openApiDocumentHandler, type OpenApiSource } from '../openapi/document.ts';

export type AppOptions = {
  corsOrigins: string[];
  rateLimitPerMinute: number;
  /** Requests with a missing or wrong key one address may make a minute (default 60). */
  failedAuthenticationsPerMinute?: number;
  /** Development: GraphQL suggests field names in its errors. */
  development: boolean;
  /**
   * Which proxies in front of the service to believe about the client's address
   * (`X-Forwarded-For`), as Express's `trust proxy` takes it; default: none.
   */
  trustProxy?: boolean | number | string;
  /** Consent records one visitor address may send a minute (default 60). */
  consentsPerMinutePerAddress?: number;
  /** Banner loads per address a minute that miss the memory (BANNER_RATE_LIMIT_PER_MINUTE; default 300). */
  bannerMissesPerMinutePerAddress?: number;
  /** Script reports (POST /script-report) one visitor address may send a minute (default 30). */
  scriptReportsPerMinutePerAddress?: number;
};

export type AppDependencies = {
  orm: MikroORM;
  logger: Logger;
  services: AppServices;
  metrics: Metrics;
  options: AppOptions;
  /** True from SIGTERM on (readiness then fails while requests are still served). */
  stopping?: () => boolean;
};

/** What the OpenAPI document is made of: the REST table and the features' texts. */
export const openApiSource = (serverUrl: string): OpenApiSource => ({ serverUrl, routes: restRoutes, features });

/** The whole HTTP surface: health, GraphQL (Yoga + GraphiQL) and the REST compatibility layer. */
export function buildApp({ orm, logger, services, metrics, options, stopping }: AppDependencies): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('trust proxy', options.trustProxy ?? false);
  // The figures the banner and the consent intake keep, read at each scrape.
  metrics.watch({ banner: services.banner.figures, consents: services.consents.figures });
  // With tracing on, every request that reaches Express gets its span first (http/tracing.ts).
  if (tracingEnabled()) app.use(traceRequests);

  // The banner first: public, hot, and in need of none of what follows (banner.routes.ts sets its
  // own headers). Its warm loads do not even reach Express (bannerFastPath, below); these routes
  // answer the rest: bad or unknown domains, failures.
  // Only requests for its paths walk its routes.
  // A client's key-less snippet (`/app.js?client=…`, autoCreateDomains): to its domain's banner.
  app.use(onlyUnder(['/app.js'], autoCreateRouter(createDomainAutoCreator(orm, services), rateLimitBannerMisses(options.bannerMissesPerMinutePerAddress ?? 300))));
  app.use(onlyUnder(BANNER_PATH_PREFIXES, bannerRouter(services.banner, rateLimitBannerMisses(options.bannerMissesPerMinutePerAddress ?? 300))));

  // What every other request passes first, in this order, as one layer of Express's router
  // (inSequence: each layer costs every request a little).
  const cors = corsFor(options.corsOrigins);
  app.use(
    inSequence(
      requestId,
      // The request line is logged at info; below that level the middleware would only cost time.
      ...(logger.isLevelEnabled('info') ? [requestLogging(logger)] : []),
      metrics.observe,
      // Consent records from the banner: public, for any origin, so before the API's security headers and CORS.
      // Its routes are all at /consent (or under it, for the headers).
      onlyUnder(['/consent'], consentIntakeRouter(orm, services.consents, rateLimitConsentIntake(options.consentsPerMinutePerAddress ?? 60))),
      // The banner's reports of scripts no embedding knows: public likewise.
      onlyUnder([SCRIPT_REPORT_PATH], scriptReportRouter(orm, rateLimitScriptReports(options.scriptReportsPerMinutePerAddress ?? 30))),
      securityHeaders(),
      ...(cors ? [cors] : []),
    ),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', readiness({ orm, scanner: services.scanner, logger, stopping }));
  // GraphiQL for browsers at GET /graphql, with its assets: public; operations need a key.
  app.use(onlyUnder(['/graphql', '/graphiql/'], graphiql('Consent domain configuration')));
  // The OpenAPI document of the REST layer and its reference page: public, like /healthz.
  app.get(OPENAPI_PATH, openApiDocumentHandler(openApiSource(services.publicBaseUrl)));
  app.use(DOCS_PATH, docsRouter());

  // Who calls, within their rate limit, with a context of their own: one layer for the three.
  app.use(
    inSequence(
      authentication(services.keys, rateLimitFailedAuthentication(options.failedAuthenticationsPerMinute ?? 60)),
      rateLimitPerKey(options.rateLimitPerMinute),
      requestContext(orm, services),
    ),
  );
  app.get('/metrics', metrics.serve);
  // A backup of the embedded database while it runs: administrator only (http/backup.ts).
  app.get(BACKUP_PATH, backupHandler(orm, logger));

  const yoga = createGraphqlHandler(schema, logger, { development: options.development, metrics });
  app.use(yoga.graphqlEndpoint, readJsonBody);
  // GraphQL answers are personal and may carry a new API key: no cache keeps them.
  app.use(yoga.graphqlEndpoint, (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Yoga is a request listener; Express takes it as middleware at its endpoint.
  app.use(yoga.graphqlEndpoint, yoga as unknown as express.RequestHandler);
  app.use(createRestRouter(restRoutes));

  app.use(notFoundHandler);
  app.use(problemHandler(logger));
  return bannerFastPath(services.banner, app, metrics.served);
}
