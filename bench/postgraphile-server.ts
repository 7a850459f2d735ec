/**
 * The GraphQL peer: PostGraphile 5 (the Amber preset, served by grafserv on node:http) over the
 * bench's database, schema `public` only — the service's tables as PostGraphile derives its
 * schema from them; pg-boss's job_queue and any other schema stay out. No GraphiQL, no watch
 * mode, no explain. Run by bench/run.ts: `node bench/postgraphile-server.ts` with DATABASE_URL
 * and PORT; answers GraphQL at /graphql and its statement count at /stats, as the baseline does.
 *
 * PostGraphile reaches the database through pooled clients (its pg adaptor connects and queries a
 * client per request), so statements are counted by wrapping each client's `query` as the pool
 * makes it: pg_stat_statements is not loaded on the benchmark's PostgreSQL server.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
let statements = 0;
pool.on('connect', (client) => {
  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    statements++;
    return send(...args);
  };
});

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  // Lets a list be ordered by a column no index leads with: assets by their position, as the
  // service orders them (neither has an index on it; the sort is PostgreSQL's either way).
  disablePlugins: ['PgIndexBehaviorsPlugin'],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
// Builds the schema (introspection) before the server listens, so the first request finds it ready.
await pgl.getSchema();
// A handler of its own rather than serv.addTo(server), which answers every other path with a 404 (and
// adds the websocket support this server does not need): /stats is answered beside it.
const handle = serv.createHandler();

const server = createServer((req, res) => {
  if (req.url === '/stats') {
    res.setHeader('content-type', 'application/json');
    return void res.end(JSON.stringify({ statements }));
  }
  handle(req, res);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('postgraphile ready'));

const stop = () => {
  server.close();
  void Promise.resolve(pgl.release()).then(() => pool.end()).finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
