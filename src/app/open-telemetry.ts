import { hostname } from 'node:os';
import {
  type Attributes,
  context,
  type Context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingSettings } from '../config.ts';
import type { OpenSpan, SpanAttributes, SpanKind as Kind, Tracer } from '../kernel/tracing.ts';
import { SERVICE_VERSION } from '../service-version.ts';

/**
 * The OpenTelemetry SDK behind kernel/tracing.ts, loaded only when tracing is configured
 * (app/tracing.ts imports this module then). Spans go in batches to the OTLP/HTTP endpoint as
 * JSON. The context manager, the W3C propagator and the tracer provider are registered globally,
 * so the job queue's own spans (pg-boss: `send`, `process`, settling) join the same traces.
 */
export type OpenTelemetryTracer = Tracer & { shutdown(): Promise<void> };

const KINDS: Record<Kind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

function samplerOf({ sampler, samplerRatio }: TracingSettings): Sampler {
  const root = sampler.endsWith('always_off') ? new AlwaysOffSampler() : sampler.endsWith('traceidratio') ? new TraceIdRatioBasedSampler(samplerRatio) : new AlwaysOnSampler();
  return sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

const defined = (attributes: SpanAttributes | undefined): Attributes => {
  const kept: Attributes = {};
  for (const [name, value] of Object.entries(attributes ?? {})) if (value !== undefined) kept[name] = value;
  return kept;
};

export function openTelemetryTracer(settings: TracingSettings & { tracesUrl: string }): OpenTelemetryTracer {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: SERVICE_VERSION,
      'host.name': hostname(),
      'process.pid': process.pid,
    }),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.tracesUrl, timeoutMillis: 10_000 }), exportTimeoutMillis: 10_000, scheduledDelayMillis: settings.exportDelayMs })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(settings.serviceName, SERVICE_VERSION);

  const handle = (span: Span, active: Context): OpenSpan => ({
    setAttributes: (attributes) => void span.setAttributes(defined(attributes)),
    rename: (name) => void span.updateName(name),
    fail(error) {
      if (error instanceof Error) {
        span.recordException(error);
        span.setAttribute('error.type', error.constructor.name);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      } else {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
      }
    },
    run: (work) => context.with(active, work),
    bind: (emitter) => void context.bind(active, emitter),
    end: () => span.end(),
  });

  return {
    startSpan(name, options = {}) {
      // A request continues the trace its headers name, or starts one: never the context it happens to be called in.
      const parent = options.remoteParent ? propagation.extract(ROOT_CONTEXT, options.remoteParent) : context.active();
      const span = tracer.startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: defined(options.attributes) }, parent);
      return handle(span, trace.setSpan(parent, span));
    },
    recordSpan(name, options) {
      // Only within a trace: the statements of timers and sweeps would each make a trace of one span.
      const parent = context.active();
      if (!trace.getSpan(parent)) return;
      const span = tracer.startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: defined(options.attributes), startTime: options.startTime }, parent);
      if (options.failed !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: options.failed });
      span.end(options.endTime);
    },
    activeSpan() {
      const active = context.active();
      const span = trace.getSpan(active);
      return span && handle(span, active);
    },
    activeIds() {
      const span = trace.getSpanContext(context.active());
      return span && trace.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
    },
    outgoingHeaders() {
      const headers: Record<string, string> = {};
      propagation.inject(context.active(), headers);
      return headers;
    },
    async shutdown() {
      // What was recorded is sent before the process ends.
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
