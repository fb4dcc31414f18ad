import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanOptions, SpanParent, Tracing } from './tracing';

const KINDS = { internal: SpanKind.INTERNAL, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER };

/** Trace context as stored with events and jobs: the W3C `traceparent` alone, whatever OTEL_PROPAGATORS says. */
const W3C = new W3CTraceContextPropagator();

const contextOf = (traceparent: string): Context => W3C.extract(ROOT_CONTEXT, { traceparent }, HEADER_GETTER);

const HEADER_GETTER = {
  get: (carrier: Record<string, string>, key: string) => carrier[key],
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
};

function linkOf(traceparent: string): Link | undefined {
  const linked = trace.getSpanContext(contextOf(traceparent));
  return linked ? { context: linked } : undefined;
}

function ended(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : undefined,
    });
  }
  span.end();
}

/**
 * Starts the OpenTelemetry SDK as the standard OTEL_* variables configure it (exporter, endpoint,
 * protocol, service name, sampler, batch delays). Traces only: the suite's metrics are Prometheus's
 * (the metrics port) and its logs are lines on standard output.
 */
export function startOpenTelemetry(serviceName: string | undefined): Tracing {
  const sdk = new NodeSDK({ serviceName, metricReaders: [], logRecordProcessors: [] });
  sdk.start();
  const tracer = trace.getTracer('suite');
  const requestSpans = new WeakMap<IncomingMessage, { span: Span; route?: string }>();

  return {
    span(name, parentOf: SpanParent, options: SpanOptions, work) {
      const [first, ...others] = parentOf === 'active' ? [] : parentOf.traceparents;
      const parent = first === undefined ? context.active() : contextOf(first);
      // Nothing to continue: the work runs outside any trace (not in one it happens to be called from).
      if (trace.getSpan(parent) === undefined || (parentOf !== 'active' && first === undefined)) {
        return context.with(ROOT_CONTEXT, () => work(undefined));
      }
      const links = others.map(linkOf).filter((link) => link !== undefined);
      const { attributes, startTime } = options;
      const kind = KINDS[options.kind ?? 'internal'];
      const span = tracer.startSpan(name, { kind, attributes, links, startTime }, parent);
      return context.with(trace.setSpan(parent, span), async () => {
        try {
          const result = await work(span);
          ended(span);
          return result;
        } catch (error) {
          ended(span, error);
          throw error;
        }
      });
    },
    traceparent() {
      const carrier: Record<string, string> = {};
      W3C.inject(context.active(), carrier, { set: (target, key, value) => (target[key] = value) });
      return carrier.traceparent;
    },
    serve(req, res, handle) {
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?', 1)[0] as string;
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': method,
            'url.path': path,
            'url.scheme': 'http',
            'network.protocol.version': req.httpVersion,
            'server.port': req.socket.localPort,
            'client.address': req.socket.remoteAddress,
            ...(req.headers['user-agent'] !== undefined && {
              'user_agent.original': req.headers['user-agent'],
            }),
          },
        },
        parent,
      );
      const served = { span, route: undefined as string | undefined };
      requestSpans.set(req, served);
      res.once('close', () => answered(res, served));
      context.with(trace.setSpan(parent, span), handle);
    },
    routed(req, route) {
      const served = requestSpans.get(req);
      if (served) served.route = route;
    },
    shutdown: () => sdk.shutdown(),
  };

  function answered(res: ServerResponse, { span, route }: { span: Span; route?: string }): void {
    const status = res.statusCode;
    if (route !== undefined) {
      span.updateName(`${res.req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    // An answer cut short (the client went away) ends the span too.
    if (!res.writableFinished) span.setAttribute('error.type', 'aborted');
    span.end();
  }
}
