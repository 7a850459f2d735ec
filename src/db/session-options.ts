/**
 * The start-up options (pg's `options`, PostgreSQL's `-c name=value`) of every connection the
 * service opens to its database: the ORM's pool, the change feed's listening connection and the
 * job queue's pool.
 *
 * `jit=off`: PostgreSQL compiles a statement to machine code when its estimated cost passes
 * `jit_above_cost` (100,000). The planner costs a domain's embeddings and their assets at the
 * average domain's size, whichever domain is asked for, so on a database with large domains the
 * nested-JSON reads crossed that line on every run: compiling took 250–300 ms for 0.5 ms of work
 * (issue 37; about 25,000 embeddings in the benchmark's database). The service's statements are
 * short index lookups, which JIT never pays off for. The embedded PGlite has no JIT and ignores
 * these options. Test: test/db-jit.test.ts.
 */
export const SESSION_OPTIONS = '-c jit=off';
