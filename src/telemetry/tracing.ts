import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attributes, Span } from '@opentelemetry/api';

export interface SpanOptions {
  attributes?: Attributes;
  kind?: 'internal' | 'producer' | 'consumer';
  /** When the work began, in milliseconds since the epoch, if before the span is made. */
  startTime?: number;
}

/**
 * What a span continues: the active span (work done for a request), or, for work that follows the
 * log, the W3C `traceparent`s of the events it handles: the first is its parent, the others linked.
 */
export type SpanParent = 'active' | { traceparents: readonly string[] };

/** Tracing as the suite's code uses it; present only while the OpenTelemetry SDK is started. */
export interface Tracing {
  /**
   * Runs `work` in a new span, ended when `work` settles (a throw is recorded on it); without a span
   * (and outside any trace) when there is nothing to continue: no active span, or no `traceparent`.
   */
  span<T>(
    name: string,
    parent: SpanParent,
    options: SpanOptions,
    work: (span: Span | undefined) => Promise<T>,
  ): Promise<T>;
  /** The W3C `traceparent` of the active span; undefined outside any span. */
  traceparent(): string | undefined;
  /**
   * Serves a request within its server span, which continues the caller's trace context
   * (`traceparent`) and ends with the response.
   */
  serve(req: IncomingMessage, res: ServerResponse, handle: () => void): void;
  /** Names the route (its template) that answered the request, on its server span. */
  routed(req: IncomingMessage, route: string): void;
  /** Exports the spans not exported yet and stops. */
  shutdown(): Promise<void>;
}

let active: Tracing | undefined;

/** The process's tracing, undefined when it is off (then no OpenTelemetry code is loaded). */
export const tracing = (): Tracing | undefined => active;

export function useTracing(started: Tracing | undefined): void {
  active = started;
}

/** `work` in a child span of the active one, when tracing is on and a span is active. */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  return active ? active.span(name, 'active', options, work) : work(undefined);
}

/**
 * `work` done for events of the log (`traceparent`s from their metadata, absent where none was
 * stored), in a span that continues their traces when tracing is on.
 */
export function continuingTraces<T>(
  name: string,
  traceparents: readonly (string | undefined)[],
  options: SpanOptions,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!active) return work(undefined);
  const distinct = [...new Set(traceparents.filter((traceparent) => traceparent !== undefined))];
  return active.span(name, { traceparents: distinct.slice(0, MAX_LINKS + 1) }, options, work);
}

/** The most traces one span links (a batch of events may carry as many as it has events). */
export const MAX_LINKS = 32;

/** The `traceparent` of the active span, when tracing is on and a span is active. */
export const activeTraceparent = (): string | undefined => active?.traceparent();
