import { v7 as uuidv7, validate as isUuid } from 'uuid';

/** Ids of stored objects: UUIDv7, so they sort by creation time. */
export const newId = (): string => uuidv7();

/** Whether a path segment can be an id at all; anything else is simply not found. */
export const isId = (value: string): boolean => isUuid(value);
