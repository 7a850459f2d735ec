import { pino, type Logger } from 'pino';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * Structured JSON logs, one object per line; `pretty` (the default when writing to a terminal)
 * renders them readable instead. API keys never appear in them: request addresses are redacted
 * by the request logger, and these paths by pino itself.
 */
export function createLogger(level: string, format: LogFormat = process.stdout.isTTY ? 'pretty' : 'json'): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'], censor: '[redacted]' },
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
  });
}
