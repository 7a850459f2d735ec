import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; API keys never appear in them (see `redact`). */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'apiKey', '*.apiKey'], censor: '[redacted]' },
  });
}
