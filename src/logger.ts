import { hostname } from 'node:os';
import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { activeTraceIds } from './kernel/tracing.ts';
import { SERVICE_VERSION } from './service-version.ts';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * Structured JSON logs, one object per line; `pretty` (the default when writing to a terminal)
 * renders them readable instead. API keys never appear in them: request addresses are redacted
 * by the request logger, and these paths by pino itself. Every line names the process (`pid`,
 * `hostname`, as pino names them, and the service's `version`) and, while a span is active (with
 * OTEL_EXPORTER_OTLP_ENDPOINT set), its `trace_id` and `span_id`.
 */
export function createLogger(level: string, format: LogFormat = process.stdout.isTTY ? 'pretty' : 'json'): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid, hostname: hostname(), version: SERVICE_VERSION },
      mixin: () => activeTraceIds() ?? {},
      redact: { paths: ['req.headers.authorization', 'apiKey', '*.apiKey', 'key', '*.key'], censor: '[redacted]' },
    },
    format === 'pretty'
      ? pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,version', destination: stdout() })
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
