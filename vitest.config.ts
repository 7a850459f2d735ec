import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no exports map: Node loads its CommonJS build, Vite would pick the .mjs one.
    // Two copies would break `instanceof GraphQLError`, so tests load the one Node loads.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
