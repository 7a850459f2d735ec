import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Tracing as the service's code sees it: spans around its own central points (requests, GraphQL
 * operations, SQL statements, scans, webhook deliveries) and the ids of the active span for the
 * logs. Nothing is installed unless an OTLP endpoint is configured (app/tracing.ts then loads the
 * OpenTelemetry SDK and installs it here); until then each call below checks one variable and
 * does nothing else.
 */

export type SpanKind = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

/** Undefined values are left out. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** What code may do with a span while it runs. */
export type TraceSpan = {
  setAttributes(attributes: SpanAttributes): void;
  rename(name: string): void;
  /** Marks the span failed: with the error (recorded with its type), or a reason. */
  fail(error: unknown): void;
};

/** A span that was started and must be ended. */
export type OpenSpan = TraceSpan & {
  /** Runs `work` with this span active: spans started in it, and what it awaits, are its children. */
  run<T>(work: () => T): T;
  /** Listeners added to `emitter` from now on run with this span active (a request's and its answer's events). */
  bind(emitter: EventEmitter): void;
  end(): void;
};

export type SpanOptions = {
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /** The W3C trace context a request came with: the span continues it (or starts a trace) instead of the active one. */
  remoteParent?: { traceparent?: string | string[] | undefined; tracestate?: string | string[] | undefined };
};

/** What the OpenTelemetry SDK provides once installed (app/open-telemetry.ts). */
export type Tracer = {
  startSpan(name: string, options?: SpanOptions): OpenSpan;
  /** A span that is already over, a child of the active one (epoch milliseconds); none outside a trace. */
  recordSpan(name: string, options: SpanOptions & { startTime: number; endTime: number; failed?: string }): void;
  activeSpan(): TraceSpan | undefined;
  activeIds(): TraceIds | undefined;
  /** `traceparent` (and `tracestate`) of the active span, for a request this process makes. */
  outgoingHeaders(): Record<string, string>;
};

/** Field names as OpenTelemetry's log data model spells them. */
export type TraceIds = { trace_id: string; span_id: string };

const NO_SPAN: TraceSpan = { setAttributes() {}, rename() {}, fail() {} };
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

let installed: Tracer | undefined;

/** Installs the tracer (undefined: none again). */
export function installTracer(tracer: Tracer | undefined): void {
  installed = tracer;
}

export const tracingEnabled = (): boolean => installed !== undefined;

/** Runs `work` in a new span, a child of the active one; ends it when `work` settles, failed if it throws. */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: TraceSpan) => Promise<T>): Promise<T> {
  if (!installed) return work(NO_SPAN);
  const span = installed.startSpan(name, options);
  try {
    return await span.run(() => work(span));
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}

/** Records a span already over (a statement whose duration is known afterwards), as a child of the active span; nothing outside a trace. */
export function recordSpan(name: string, options: SpanOptions & { startTime: number; endTime: number; failed?: string }): void {
  installed?.recordSpan(name, options);
}

/** The active span (to name it once more is known), or one that ignores what it is told. */
export const activeSpan = (): TraceSpan => installed?.activeSpan() ?? NO_SPAN;

/** The ids of the active span, for log lines. */
export const activeTraceIds = (): TraceIds | undefined => installed?.activeIds();

/** Headers that carry the active span's context to the receiver of a request this process makes. */
export const outgoingTraceHeaders = (): Readonly<Record<string, string>> => installed?.outgoingHeaders() ?? NO_HEADERS;

const TRACED = Symbol('traced request');

/**
 * Runs `handle` for an incoming HTTP request inside its server span, which continues the
 * request's `traceparent` and ends with the answer. `route` names the route template once the
 * answer is done (undefined: none matched). A request already traced (the banner's fast path
 * that handed it to Express) keeps its first span.
 */
export function traceIncoming(req: IncomingMessage, res: ServerResponse, route: () => string | undefined, handle: () => void): void {
  const traced = req as IncomingMessage & { [TRACED]?: true };
  if (!installed || traced[TRACED]) return handle();
  traced[TRACED] = true;
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const span = installed.startSpan(method, {
    kind: 'server',
    remoteParent: { traceparent: req.headers.traceparent, tracestate: req.headers.tracestate },
    // The path only: a query may carry an API key.
    attributes: { 'http.request.method': method, 'url.path': query < 0 ? url : url.slice(0, query), 'user_agent.original': req.headers['user-agent'] },
  });
  span.bind(req);
  span.bind(res);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const template = route();
    if (template) span.rename(`${method} ${template}`);
    span.setAttributes({ 'http.route': template, 'http.response.status_code': res.statusCode });
    if (!res.writableFinished) span.fail('the connection closed before the answer was sent');
    else if (res.statusCode >= 500) {
      span.setAttributes({ 'error.type': String(res.statusCode) });
      span.fail(`answered ${res.statusCode}`);
    }
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  span.run(handle);
}
