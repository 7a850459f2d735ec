import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * Structured JSON logs, one object per line; `pretty` (the default when writing to a terminal)
 * renders them readable instead. API keys never appear in them: request addresses are redacted
 * by the request logger, and these paths by pino itself.
 */
export function createLogger(level: string, format: LogFormat = process.stdout.isTTY ? 'pretty' : 'json'): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['req.headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'], censor: '[redacted]' },
    },
    format === 'pretty'
      ? pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', destination: stdout() })
      : stdout(),
  );
}

/**
 * Standard output, written synchronously (as `console.log` writes to a pipe or file). When its
 * reader has gone (`npm start | head -1`), a write meets EPIPE and pino stops logging, and the
 * process goes on. Not pino's default asynchronous stream: at exit it writes the lines it still
 * holds, and on a closed pipe it retries them for ever (sonic-boom's flushSync), so a shutdown
 * never ended; nor a pino-pretty worker thread, which at exit waits for lines the worker no
 * longer takes once its stream has failed.
 */
const stdout = () => pino.destination({ dest: 1, sync: true });
