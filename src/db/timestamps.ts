import { p } from '@mikro-orm/core';

/** createdAt/updatedAt, kept by the ORM, shared by every stored object. */
export const timestamps = () => ({
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
});
