import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** Response headers as name and value, in the order they are sent. */
export type HeaderList = readonly (readonly [string, string])[];

/** What a port serves: JSON (module and audit APIs, metrics), the documentation pages, or the console. */
export type PageKind = 'api' | 'docs' | 'console';

export interface HeaderSettings {
  /** `SUITE_COOKIE_SECURE`: the suite is served over HTTPS, so browsers are told to keep to it. */
  secure: boolean;
  /** The API origins the console's page may call (`connect-src`), from the configuration. */
  consoleApis?: readonly string[];
}

/** A JSON answer is no page: it loads nothing, and nothing may frame it. */
const API_POLICY = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

/**
 * The pages' policy: their own scripts only, no plug-ins, no framing. Styles may be inline: Swagger
 * UI writes a `<style>` block, and the console's component library sets its theme's variables so.
 */
const pagePolicy = (connect: readonly string[]) => ({
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", ...connect],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
});

/** A year, as browsers expect of a site that is served over HTTPS only. */
const HSTS_MAX_AGE = 365 * 86_400;

/**
 * The one place the suite's security headers are defined, as helmet's options. The console and
 * documentation pages get helmet's defaults with the suite's policy; the JSON ports only what a
 * JSON answer needs, as they answer the hot paths. The console's API ports are same-site (another
 * port of the same host), so resources are shared with the same site only.
 */
export function helmetOptions(kind: PageKind, settings: HeaderSettings): HelmetOptions {
  const json = kind === 'api';
  const connect = kind === 'console' ? (settings.consoleApis ?? []) : [];
  return {
    contentSecurityPolicy: { useDefaults: false, directives: json ? API_POLICY : pagePolicy(connect) },
    referrerPolicy: { policy: 'no-referrer' },
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    crossOriginResourcePolicy: { policy: 'same-site' },
    strictTransportSecurity: settings.secure ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
    // What only a page needs: a JSON port does without.
    crossOriginOpenerPolicy: !json,
    originAgentCluster: !json,
    xDnsPrefetchControl: !json,
    xPermittedCrossDomainPolicies: !json,
    xDownloadOptions: false,
    xXssProtection: false,
  };
}

/**
 * The headers helmet sets with these options, worked out once: the `node:http` hot paths send a
 * precomputed list rather than running a middleware per request.
 */
export function securityHeaders(kind: PageKind, settings: HeaderSettings): HeaderList {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(helmetOptions(kind, settings))({} as IncomingMessage, recorder, () => undefined);
  return headers;
}
