import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenTelemetry collector: a loopback server that takes OTLP/HTTP exports of
 * traces in the JSON encoding (POST /v1/traces) and keeps their spans, flattened.
 */
export type OtlpReceiver = {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to (the exporter adds /v1/traces). */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every export request: its path and content type. */
  exports: { path: string; contentType: string | undefined }[];
  close(): Promise<void>;
};

/** OTLP's span kinds. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  /** Undefined for a trace's root span. */
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** 2: error. */
  status: { code?: number; message?: string };
  resource: Record<string, unknown>;
  /** Who made it: the service's tracer, or a library (pg-boss). */
  scope: string;
};

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] } };
type KeyValue = { key: string; value: AnyValue };
type ExportRequest = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[]; status?: { code?: number; message?: string } }[];
    }[];
  }[];
};

function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiver['exports'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      exports.push({ path: req.url ?? '', contentType: req.headers['content-type'] });
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const request = JSON.parse(body) as ExportRequest;
      for (const resourceSpans of request.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              status: span.status ?? {},
              resource,
              scope: scopeSpans.scope?.name ?? '',
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    exports,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
