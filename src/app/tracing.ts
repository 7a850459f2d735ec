import type { TracingSettings } from '../config.ts';
import { installTracer } from '../kernel/tracing.ts';

/** Tracing while it runs; `stop` sends the spans still held, then uninstalls it. */
export type Tracing = { stop(): Promise<void> };

/**
 * Starts tracing when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), before the job queue and the HTTP app are built (they ask
 * whether it is on). Without one, nothing is loaded: the SDK is imported here, on demand.
 */
export async function startTracing(settings: TracingSettings): Promise<Tracing | undefined> {
  const { tracesUrl } = settings;
  if (!tracesUrl) return undefined;
  const { openTelemetryTracer } = await import('./open-telemetry.ts');
  const tracer = openTelemetryTracer({ ...settings, tracesUrl });
  installTracer(tracer);
  return {
    async stop() {
      installTracer(undefined);
      await tracer.shutdown();
    },
  };
}
