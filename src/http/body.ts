import { isUtf8 } from 'node:buffer';
import express from 'express';
import { invalidPayload } from '../kernel/contract/validate.ts';
import { BODY_LIMIT } from '../kernel/limits.ts';

/** Refuses a body that is not valid UTF-8 (the parser would turn its bad bytes into U+FFFD and store them). */
function requireUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) {
    throw Object.assign(new Error('the body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
  }
}

/** Reads any request body as text, whatever content type it claims (`jsonBody` parses it). */
export const readBody = express.text({ limit: BODY_LIMIT, type: () => true, verify: requireUtf8 });

/** GraphQL documents come as JSON of at most BODY_LIMIT in UTF-8, like REST bodies (larger: 413). */
export const readJsonBody = express.json({ limit: BODY_LIMIT, verify: requireUtf8 });

/** The body as JSON; an empty body or one that is not JSON is a 400, never an empty update. */
export function jsonBody(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') {
    throw invalidPayload([{ path: '', message: 'a JSON body is required' }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidPayload([{ path: '', message: 'is not valid JSON' }]);
  }
}
