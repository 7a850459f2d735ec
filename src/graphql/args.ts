import { type builder } from './builder.ts';

/** The arguments that address a client's domain, shared by every domain-level mutation. */
export const domainArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  clientId: t.arg.id({ required: true }),
  domainId: t.arg.id({ required: true }),
});
