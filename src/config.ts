import path from 'node:path';
import { durationSeconds } from './duration';
import { z } from 'zod';
import { MODULE_IDS, type ModuleId } from './modules/ids';
import { jwksSource, type JwksSource } from './iam/jwks-source';
import { isKeyName, isSigningKey } from './log-proofs/note';
import { parseWitnesses } from './log-proofs/witness-list';
import { DEFAULT_CACHE_MB } from './projections/cache-budget';
import { DEFAULT_READY_MAX_LAG } from './readiness';

const port = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a port number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be a port number').max(65_535, 'must be a port number'))
    .default(fallback);

/** Default port of each module; each is overridable by `SUITE_<MODULE>_PORT`. */
export const DEFAULT_PORTS: Record<ModuleId, number> = {
  esm: 8081,
  clm: 8082,
  hrm: 8083,
  market: 8084,
  ppm: 8085,
  crm: 8086,
  lms: 8087,
  cms: 8088,
  mail: 8089,
  fpa: 8090,
};

const portVariable = (module: ModuleId) => `SUITE_${module.toUpperCase()}_PORT`;

/** Unset or empty: none. A token must be hard to guess and exactly what a client can send. */
const bearerToken = () =>
  z
    .string()
    .optional()
    .transform((token) => (token === '' ? undefined : token))
    .refine((token) => token === undefined || token.trim() === token, 'must not start or end with spaces')
    .refine((token) => token === undefined || token.length >= 16, 'must be at least 16 characters');

/** Unset or empty: none. A value with spaces at either end is a copying mistake that would never match. */
const setting = () =>
  z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || value.trim() === value, 'must not start or end with spaces');

/** Variables whose values are secrets or may hold one (a password in a connection string): never printed. */
const SECRET_VARIABLES = new Set([
  'SUITE_API_TOKEN',
  'SUITE_AUDIT_TOKEN',
  'SUITE_SESSION_SECRET',
  'SUITE_SIGNING_KEY',
  'SUITE_EVENT_STORE',
  'SUITE_READ_STORE',
  'SUITE_REDIS_URL',
  // A key set URL may carry an access token in its query.
  'SUITE_OIDC_JWKS',
]);

/** `scheme://host[:port]`, exactly as a browser sends it in `Origin`. */
function isOrigin(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol) && new URL(text).origin === text;
  } catch {
    return false;
  }
}

/**
 * The origins the console is opened from, which the module ports and the audit API allow: the
 * configured ones, or the console's port on the suite's host (on both names of this machine when the
 * host is one of them, or every interface).
 */
function consoleOrigins(values: Variables): string[] {
  if (values.SUITE_CONSOLE_ORIGINS !== undefined) return values.SUITE_CONSOLE_ORIGINS.split(',');
  const port = values.SUITE_CONSOLE_PORT;
  const host = values.SUITE_HOST;
  const local = ['127.0.0.1', 'localhost'];
  const hosts =
    local.includes(host) || host === '0.0.0.0' ? local : [host.includes(':') ? `[${host}]` : host];
  return hosts.map((name) => `http://${name}:${port}`);
}

/** A host as a client names it in `Host`: a name, an IPv4 address or a bracketed IPv6 one, maybe with a port. */
const HOST_ENTRY =
  /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?$/i;

/** This machine's names, which a page on another site can never make a browser send as `Host`. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The hosts the suite answers for (`Host`): the configured ones, or this machine's names, the suite's
 * host and the hosts the console is opened at.
 */
function allowedHosts(values: Variables, origins: readonly string[]): string[] {
  if (values.SUITE_ALLOWED_HOSTS !== undefined) {
    return values.SUITE_ALLOWED_HOSTS.split(',').map((host) => host.toLowerCase());
  }
  const host = values.SUITE_HOST.includes(':') ? `[${values.SUITE_HOST}]` : values.SUITE_HOST;
  const consoleHosts = origins.map((origin) => new URL(origin).hostname);
  return [...new Set([...LOOPBACK_HOSTS, host, ...consoleHosts].map((name) => name.toLowerCase()))];
}

/** The identity provider's variables that only make sense together. */
const OIDC_VARIABLES = ['SUITE_OIDC_ISSUER', 'SUITE_OIDC_AUDIENCE', 'SUITE_OIDC_JWKS'] as const;

/** The environment variables the suite reads, each checked on its own. */
const VariablesSchema = z.object({
  SUITE_DATA_DIR: z.string().min(1).default('./data'),
  SUITE_HOST: z.string().min(1).default('127.0.0.1'),
  SUITE_API_TOKEN: bearerToken(),
  SUITE_AUDIT_TOKEN: bearerToken(),
  SUITE_AUDIT_PORT: port(8091),
  SUITE_CONSOLE_PORT: port(8080),
  SUITE_CONSOLE_ORIGINS: setting().refine(
    (origins) => origins === undefined || origins.split(',').every(isOrigin),
    'must be origins such as https://console.example.com, separated by commas',
  ),
  SUITE_ALLOWED_HOSTS: setting().refine(
    (hosts) => hosts === undefined || hosts.split(',').every((host) => HOST_ENTRY.test(host)),
    'must be host names such as suite.example.com or [::1], each maybe with a port, separated by commas',
  ),
  SUITE_SESSION_SECRET: z
    .string()
    .optional()
    .transform((secret) => (secret === '' ? undefined : secret))
    .refine((secret) => secret === undefined || secret.length >= 32, 'must be at least 32 characters'),
  SUITE_LOG_ORIGIN: z
    .string()
    .refine(
      isKeyName,
      'must be a log name such as example.com/log: no spaces, plus signs or control characters',
    )
    .default('suite.local/log'),
  SUITE_SIGNING_KEY: setting().refine(
    (key) => key === undefined || isSigningKey(key),
    'must be a signing key PRIVATE+KEY+<name>+<key id>+<base64 key>, its key id matching its key',
  ),
  SUITE_WITNESSES: setting().transform((value, context) => {
    const witnesses = parseWitnesses(value ?? '');
    if (typeof witnesses === 'string') {
      context.addIssue({ code: 'custom', message: witnesses });
      return z.NEVER;
    }
    return witnesses;
  }),
  SUITE_SEED: z.string().min(1).default('demo'),
  SUITE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SUITE_EVENT_STORE: z
    .string()
    .regex(/^(sqlite|esdb(\+discover)?:\/\/.+)$/, 'must be sqlite or an esdb:// connection string')
    .default('sqlite'),
  SUITE_READ_STORE: z
    .string()
    .regex(/^(sqlite|mongodb(\+srv)?:\/\/.+)$/, 'must be sqlite or a mongodb:// URL')
    .default('sqlite'),
  SUITE_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/.+/, 'must be a redis:// URL')
    .optional(),
  SUITE_REDIS_PREFIX: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores')
    .default('suite'),
  SUITE_KAFKA_BROKERS: z
    .string()
    .regex(/^[\w.-]+:\d+(,[\w.-]+:\d+)*$/, 'must be host:port[,host:port...]')
    .optional(),
  SUITE_METRICS_PORT: port(9464),
  SUITE_WRITE_RATE_LIMIT: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of writes per second (0: no limit)')
    .transform(Number)
    .default(1000),
  SUITE_LOG_READ_RATE_LIMIT: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of reads per second (0: no limit)')
    .transform(Number)
    .default(100),
  SUITE_CACHE_MB: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of megabytes (0: no caching)')
    .transform(Number)
    .default(DEFAULT_CACHE_MB),
  SUITE_AUTH_FAILURE_LIMIT: z
    .string()
    .regex(/^[1-9]\d*$/, 'must be a whole number of failed authentications per minute, at least 1')
    .transform(Number)
    .default(100),
  SUITE_COOKIE_SECURE: z
    .enum(['true', 'false'])
    .transform((secure) => secure === 'true')
    .default(false),
  SUITE_READS: z.enum(['public', 'token']).default('public'),
  SUITE_WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .transform((allow) => allow === 'true')
    .default(false),
  SUITE_PROPOSAL_TTL: z
    .string()
    .refine((text) => durationSeconds(text) !== undefined, 'must be a duration such as 7d, 12h or 30m')
    .transform((text) => durationSeconds(text) as number)
    .default(7 * 86_400),
  SUITE_OIDC_ISSUER: setting(),
  SUITE_OIDC_AUDIENCE: setting(),
  SUITE_OIDC_JWKS: setting().transform((value, context) => {
    if (value === undefined) return undefined;
    const source = jwksSource(value);
    if (source === undefined) {
      context.issues.push({
        code: 'custom',
        input: value,
        message:
          'must be an https:// URL, an http:// URL of this machine (localhost, 127.0.0.1, [::1]) or a readable file',
      });
    }
    return source;
  }),
  SUITE_READY_MAX_LAG: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of events')
    .transform(Number)
    .default(DEFAULT_READY_MAX_LAG),
  OTEL_TRACES_EXPORTER: z
    .string()
    .regex(/^\s*(none|otlp|console)\s*(,\s*(none|otlp|console)\s*)*$/, 'must be none, otlp or console')
    .optional(),
  SUITE_OIDC_ADMIN_ROLE: z
    .enum(['true', 'false'])
    .transform((granted) => granted === 'true')
    .default(false),
  SUITE_OIDC_ROLES_CLAIM: z
    .string()
    .regex(/^[^\s.]+(\.[^\s.]+)*$/, 'must be a claim name, or a dotted path to a nested claim')
    .default('roles'),
  SUITE_OIDC_PERSON_CLAIM: z
    .string()
    .regex(/^[^\s.]+(\.[^\s.]+)*$/, 'must be a claim name, or a dotted path to a nested claim')
    .optional(),
  ...Object.fromEntries(MODULE_IDS.map((module) => [portVariable(module), port(DEFAULT_PORTS[module])])),
});

type Variables = z.output<typeof VariablesSchema>;

/** What the credentials' variables must hold together. */
function credentialProblems(values: Variables): string[] {
  const problems: string[] = [];
  if (values.SUITE_AUDIT_TOKEN !== undefined && values.SUITE_AUDIT_TOKEN === values.SUITE_API_TOKEN) {
    problems.push('SUITE_AUDIT_TOKEN: must differ from SUITE_API_TOKEN');
  }
  if (values.SUITE_READS === 'token' && values.SUITE_API_TOKEN === undefined) {
    problems.push('SUITE_READS: token needs SUITE_API_TOKEN');
  }
  const missing = OIDC_VARIABLES.filter((variable) => values[variable] === undefined);
  if (missing.length > 0 && missing.length < OIDC_VARIABLES.length) {
    problems.push(`${missing.join(', ')}: needed too, as ${OIDC_VARIABLES.join(', ')} go together`);
  }
  return problems;
}

/** The identity provider, when its variables are set (all of them, as `credentialProblems` checks). */
function identityProvider(values: Variables): OidcConfig | undefined {
  const { SUITE_OIDC_ISSUER: issuer, SUITE_OIDC_AUDIENCE: audience, SUITE_OIDC_JWKS: jwks } = values;
  if (issuer === undefined || audience === undefined || jwks === undefined) return undefined;
  const personClaim = values.SUITE_OIDC_PERSON_CLAIM;
  return {
    issuer,
    audience,
    jwks,
    rolesClaim: values.SUITE_OIDC_ROLES_CLAIM,
    ...(personClaim !== undefined && { personClaim }),
    adminRole: values.SUITE_OIDC_ADMIN_ROLE,
  };
}

/** An identity provider whose signed tokens (JWTs) are bearer credentials. */
export interface OidcConfig {
  /** The tokens' `iss`. */
  issuer: string;
  /** What the tokens' `aud` must hold. */
  audience: string;
  jwks: JwksSource;
  /** The claim holding the roles: its exact name, or a dotted path into nested claims. */
  rolesClaim: string;
  /** The claim naming the person behind a token (`email`); unset: the `sub`. */
  personClaim?: string;
  /** `SUITE_OIDC_ADMIN_ROLE`: the provider may grant `admin`; otherwise that role of its tokens is ignored. */
  adminRole: boolean;
}

/** A budget of requests (per caller, per client address): a burst of `capacity`, then a steady rate. */
export interface RateLimit {
  /** Requests allowed in a burst. */
  capacity: number;
  /** Requests regained per second, up to the capacity. */
  refillPerSecond: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Each module's port (`SUITE_<MODULE>_PORT`). */
function modulePorts(values: Variables): Record<ModuleId, number> {
  const variables = values as Variables & Record<string, number>;
  return Object.fromEntries(MODULE_IDS.map((module) => [module, variables[portVariable(module)]])) as Record<
    ModuleId,
    number
  >;
}

/** The first port two listeners are given, named by its variables. */
function portClash(values: Variables): string | undefined {
  const ports = modulePorts(values);
  const taken = new Map<number, string>();
  const listeners: [string, number][] = [
    ...MODULE_IDS.map((module): [string, number] => [portVariable(module), ports[module]]),
    ['SUITE_AUDIT_PORT', values.SUITE_AUDIT_PORT],
    ['SUITE_CONSOLE_PORT', values.SUITE_CONSOLE_PORT],
  ];
  for (const [variable, value] of listeners) {
    const other = taken.get(value);
    if (other) return `${variable}: port ${value} is already ${other}`;
    taken.set(value, variable);
  }
  return undefined;
}

/** What the variables must hold together: the credentials' problems, else a port given twice. */
function problemsTogether(values: Variables): string[] {
  const problems = credentialProblems(values);
  if (problems.length > 0) return problems;
  const clash = portClash(values);
  return clash === undefined ? [] : [clash];
}

/** The configuration the variables make, once they hold together. */
function configuration(values: Variables) {
  const writeRateLimit: RateLimit | undefined =
    values.SUITE_WRITE_RATE_LIMIT === 0
      ? undefined
      : { capacity: 2 * values.SUITE_WRITE_RATE_LIMIT, refillPerSecond: values.SUITE_WRITE_RATE_LIMIT };
  const logReadRateLimit: RateLimit | undefined =
    values.SUITE_LOG_READ_RATE_LIMIT === 0
      ? undefined
      : { capacity: 2 * values.SUITE_LOG_READ_RATE_LIMIT, refillPerSecond: values.SUITE_LOG_READ_RATE_LIMIT };
  const authFailureLimit: RateLimit = {
    capacity: values.SUITE_AUTH_FAILURE_LIMIT,
    refillPerSecond: values.SUITE_AUTH_FAILURE_LIMIT / 60,
  };
  return {
    dataDir: path.resolve(values.SUITE_DATA_DIR),
    host: values.SUITE_HOST,
    /** Unset: writes are disabled (503). */
    apiToken: values.SUITE_API_TOKEN,
    /** Unset: the audit API answers 503. */
    auditToken: values.SUITE_AUDIT_TOKEN,
    /** Signs session cookies (market); unset: generated once and kept in the data directory. */
    sessionSecret: values.SUITE_SESSION_SECRET,
    /** The log's name: the first line of its checkpoints, and the name of a generated signing key. */
    logOrigin: values.SUITE_LOG_ORIGIN,
    /** Signs the log's checkpoints (`PRIVATE+KEY+…`); unset: generated once and kept in the data directory. */
    signingKey: values.SUITE_SIGNING_KEY,
    /** The witnesses each new checkpoint is sent to for their cosignatures (C2SP tlog-witness). */
    witnesses: values.SUITE_WITNESSES,
    /** Reads per second each client address may make of the log's public routes (checkpoints, tiles); unset: no limit. */
    logReadRateLimit,
    auditPort: values.SUITE_AUDIT_PORT,
    /** Where `suite start` and `suite console` serve the console. */
    consolePort: values.SUITE_CONSOLE_PORT,
    /** The origins the module ports and the audit API answer cross-origin requests of (the console's). */
    consoleOrigins: consoleOrigins(values),
    /**
     * The hosts every port answers for (`Host`), lower case: a name alone is allowed with any of the
     * suite's ports or none, a name with a port only so. Any other host is refused (421).
     */
    allowedHosts: allowedHosts(values, consoleOrigins(values)),
    /** `none`: no demo data; any other value seeds the demo generator. */
    seed: values.SUITE_SEED,
    logLevel: values.SUITE_LOG_LEVEL,
    ports: modulePorts(values),
    /** `sqlite` (the embedded log in the data directory) or an EventStoreDB/KurrentDB connection string. */
    eventStore: values.SUITE_EVENT_STORE,
    /** `sqlite` (read models in the data directory) or a MongoDB connection string. */
    readStore: values.SUITE_READ_STORE,
    /** Set: jobs go through BullMQ on this Redis; unset: they run in the process that queues them. */
    redisUrl: values.SUITE_REDIS_URL,
    /** Prefix of the job queue's Redis keys, so several suites can share one Redis. */
    redisPrefix: values.SUITE_REDIS_PREFIX,
    /** Kafka brokers `suite relay` publishes to. */
    kafkaBrokers: values.SUITE_KAFKA_BROKERS?.split(','),
    /** Where the projector, worker and relay roles serve `/metrics`. */
    metricsPort: values.SUITE_METRICS_PORT,
    /** Writes per second each caller may make, with bursts of twice that; unset: no limit. */
    writeRateLimit,
    /** Failed authentications each client address may make, per minute and in one burst. */
    authFailureLimit,
    /** Session cookies are `Secure` and named with the `__Host-` prefix (the suite is served over HTTPS). */
    cookieSecure: values.SUITE_COOKIE_SECURE,
    /** `token`: reads of the modules whose reads are otherwise public need the API token too. */
    reads: values.SUITE_READS,
    /** Webhooks may be sent to private and loopback addresses: for development and tests only. */
    webhookAllowPrivate: values.SUITE_WEBHOOK_ALLOW_PRIVATE,
    /** How long a write held back for approval may wait for its decision, in seconds. */
    proposalTtlSeconds: values.SUITE_PROPOSAL_TTL,
    /** Bytes the embedded read store may keep of the pages, totals and documents it has answered. */
    cacheBytes: values.SUITE_CACHE_MB * 2 ** 20,
    /** Unset: no identity provider's tokens are accepted. */
    oidc: identityProvider(values),
    /** Events the read models may lag behind the log while the process still answers ready (`/readyz`). */
    readyMaxLag: values.SUITE_READY_MAX_LAG,
  };
}

/** The variables, checked on their own and together, made into the configuration. */
const ConfigSchema = VariablesSchema.transform((values, context) => {
  const problems = problemsTogether(values);
  for (const message of problems) context.issues.push({ code: 'custom', input: values, message });
  return problems.length > 0 ? z.NEVER : configuration(values);
});

export type Config = z.output<typeof ConfigSchema>;

/** Reads and validates the configuration once; an invalid value names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    // A problem of variables together names them itself.
    if (issue.path.length === 0) return issue.message;
    const variable = String(issue.path[0]);
    if (SECRET_VARIABLES.has(variable)) return `${variable}: ${issue.message}`;
    return `${variable}: ${issue.message} (got ${JSON.stringify(env[variable])})`;
  });
  throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
