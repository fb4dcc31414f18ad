import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { CommandContext, CommandResult } from '../../commands/context';
import type { FeedResource } from '../../changes/change';
import type { EventDefinition } from '../../events/catalog';
import type { DocumentProjection, Projector } from '../../projections/projection';
import type { CollectionDefinition, Filter, FilterOperator } from '../../projections/read-store';
import type { RateLimit } from '../../config';
import type { RateLimiter } from './rate-limit';
import type { Principal, Role } from '../../iam/principal';
import type { AuthThrottle } from './auth-throttle';
import type { Identity } from './identity';
import type { NameReferences } from './record-names';
import type { ModuleServices, SuiteModule } from '../../modules/module';
import type { SeedContext } from '../../seed/context';

/** A list query parameter that filters on a document field. */
export interface FilterDefinition {
  field: string;
  op?: FilterOperator;
  schema: z.ZodType<string | number | boolean>;
  description: string;
  /** The read-store filter a value selects, when it is not `field op value` (`unassigned=true`: no assignee). */
  where?(value: string | number | boolean): Filter;
}

/** A read resource: `GET /api/v1/<path>` and `GET /api/v1/<path>/{id}`. */
export interface ResourceDefinition {
  path: string;
  /** Singular, for messages: `Request 42 not found`. */
  name: string;
  description: string;
  collection: CollectionDefinition;
  record: z.ZodObject;
  filters?: Readonly<Record<string, FilterDefinition>>;
  /**
   * The document field holding the caller's scope (e.g. `workspace_id`) in a module with `access`:
   * lists only show, and by-id reads only find, documents of the caller's scope.
   */
  scopeField?: string;
  /**
   * Fields every answer of a record carries that its read model does not store: the names of the
   * records it points to (`assignee_name`), read with it. Declare each in `record` too.
   */
  names?: NameReferences;
  /**
   * Fields the projection computes from the record's others (`next_statuses` from `status`): a
   * record's activity shows the change of the field they follow, not theirs.
   */
  derived?: readonly string[];
  /**
   * The event type of a comment on the record (data `body` and `visibility`): its activity shows it as
   * a comment, an `internal` one only to the module's writers and approvers.
   */
  comments?: string;
}

/** An audited write: the kit authenticates, validates the body, records metadata and answers. */
export interface WriteRoute<Body = unknown> {
  method: 'post' | 'patch';
  /** Express path, e.g. `/api/v1/requests/:item_id`. */
  path: string;
  /** Its verb and resource, for its operationId (`updateRequest`: `esm_updateRequest`). */
  operation: string;
  summary: string;
  body: z.ZodType<Body>;
  status: 200 | 201;
  /** The role the caller needs; default `<module>:writer`. */
  role?: Role;
  /** The record the answer carries: the stream folded through this projection. */
  resource: ResourceDefinition;
  projection: DocumentProjection;
  execute(
    input: { body: Body; params: Record<string, string>; caller: Caller },
    context: CommandContext,
  ): Promise<CommandResult>;
}

/** Who is calling, as the module's access check established it. */
export interface Caller {
  /** Recorded as `actor` on the events of a write: the principal (`key:<id>`...), or a session's user. */
  actor: string;
  /** Recorded as `actor_name`: the key's name, the token's name or email. */
  actorName?: string;
  /** The person behind the principal (recorded as `person` on events); four eyes compare persons. */
  person?: string;
  /** The scope the caller's reads and writes are confined to (recorded as `organisation` on events). */
  scope?: string;
  /** The contract workspace member the principal acts as (recorded as `member` on events). */
  member?: string;
  /** The principal behind a bearer credential, with its roles (a market session's user has none). */
  principal?: Principal;
  /** A write held back for approval, running on its approval: recorded on its events. */
  approval?: {
    proposal_id: string;
    proposed_by: string;
    approved_by: string;
    /** The approver's person, who took the decision (an employee's, for the domain's "approved by"). */
    approver_person?: string;
    /** The HR employee the approver's person is linked to; `null`: none. */
    approver_employee?: number | null;
  };
  /** The HR employee the person is linked to (`hrm.employee-<id>`, or by company e-mail); `null`: none. */
  employee?: number | null;
  /** Checked for a proposal (a dry run): whoever decides is the approver, later, not this caller. */
  proposing?: true;
}

/**
 * What a data endpoint asks of its caller: a read or a write, and the role it needs (none: only who the
 * caller is, the endpoint checks its roles itself).
 */
export interface AccessNeed {
  kind: 'read' | 'write';
  role?: Role;
}

/** The headers (or cookies) a request carries, as the access check sees them. */
export interface AccessRequest {
  header(name: string): string | undefined;
}

/** The deployment's secrets, for access checks and routes that authenticate themselves; never logged. */
export interface ModuleSettings {
  /**
   * The bootstrap administrator's token. Unset (and no identity provider): writes (and whatever else
   * needs a credential) answer 503, unless the request carries a valid API key.
   */
  apiToken: string | undefined;
  /** Who a bearer token names; default: the bootstrap administrator's token alone. */
  identity?: Identity;
  /** The server secret: signs session cookies. */
  sessionSecret: string;
  /** Writes allowed per caller; unset: unlimited. */
  writeRateLimit?: RateLimit;
  /** Counts failed authentications per client address; one for every port of a process. Unset: none. */
  authThrottle?: AuthThrottle;
  /** `token`: reads need the API token too (modules without an access check of their own). Unset: public. */
  reads?: 'public' | 'token';
  /** Session cookies are `Secure` and named with the `__Host-` prefix (served over HTTPS). */
  secureCookies?: boolean;
  /** How long a write held back for approval may wait (`SUITE_PROPOSAL_TTL`); default 7 days. */
  proposalTtlSeconds?: number;
  /** Webhooks may target private and loopback addresses (`SUITE_WEBHOOK_ALLOW_PRIVATE`); default no. */
  webhookAllowPrivate?: boolean;
  /** Counts the reads of `public` routes per client address (429 beyond); unset: unlimited. */
  publicReads?: RateLimiter;
}

/** How long a proposal may wait for its approval. */
export const proposalTtl = (settings: ModuleSettings): number => settings.proposalTtlSeconds ?? 7 * 86_400;

/** How an API's access check is described: its schemes, the headers it reads, what it may answer. */
export interface AccessDescription {
  /** OpenAPI security schemes, by name: every data endpoint takes any one of them. */
  securitySchemes: Readonly<Record<string, SecurityScheme>>;
  /** Request headers every data endpoint takes (`writes`: only writes). */
  headers: readonly { name: string; description: string; on: 'all' | 'writes' }[];
  /** Statuses the check may answer, with their meaning, for the descriptions. */
  errors: Readonly<Partial<Record<400 | 401 | 403 | 503, string>>>;
}

/**
 * Who may call a module's data endpoints (reads, writes and routes; health, index and descriptions
 * stay public). Modules without it have public reads and bearer-token writes.
 */
export interface ModuleAccess extends AccessDescription {
  /** Throws an `ApiError` (400, 401, 403, 503...) or names the caller. */
  authorize(
    request: AccessRequest,
    need: AccessNeed,
    services: ModuleServices,
    settings: ModuleSettings,
  ): Promise<Caller>;
}

export type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; description?: string }
  | { type: 'apiKey'; in: 'cookie' | 'header'; name: string; description?: string };

/**
 * What a route's handler answers: JSON, a text of another media type (a signed note as `text/plain`),
 * or `streamed` when it wrote the response itself.
 */
export type RouteAnswer =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; text: string | Buffer; mediaType: string; headers?: Record<string, string> }
  | 'streamed';

export interface RouteInput<Query, Body> {
  query: Query;
  params: Record<string, string>;
  body: Body;
  caller: Caller;
  requestId: string;
  /** A request header (its last value when repeated). */
  header(name: string): string | undefined;
  /** For routes that append events: the caller as actor, the request's ids, the scope as organisation. */
  commands: CommandContext;
  /**
   * The raw exchange, for routes that stream (server-sent events): absent when a held-back write runs
   * on its approval.
   */
  req?: IncomingMessage;
  res?: ServerResponse;
  settings: ModuleSettings;
}

/**
 * An endpoint beyond the list/by-id reads and the audited writes: computed views (`/api/overview`),
 * streams, sessions; and every endpoint of the audit API. The kit validates query and body with the
 * schemas, checks access unless the route is `public`, and describes it from the same schemas.
 * `Services`: what its handler is given (a module's route services, or the audit API's).
 */
export interface ModuleRoute<Query = unknown, Body = unknown, Services = ModuleServices> {
  method: 'get' | 'post' | 'delete';
  /**
   * Express path, e.g. `/api/competitors/:competitor_id`; a last parameter `*name` takes the rest of the
   * path, slashes included (a tile's `x001/x234/067`).
   */
  path: string;
  /** Its verb and resource, for its operationId (`getCompetitor`: `market_getCompetitor`). */
  operation: string;
  summary: string;
  tags?: readonly string[];
  /**
   * `module` (the default): the module's access check. `public`: none (its reads count against the
   * client address's budget when the settings carry one, `publicReads`). `bearer`: a bearer credential
   * holding the route's role, as the kit's writes take it (503 while none can be checked, 401, 403),
   * before the body is read.
   */
  auth?: 'module' | 'public' | 'bearer';
  /**
   * The role the caller needs; default `<module>:reader` for a GET, else `<module>:writer`. `null`:
   * only who the caller is (the handler checks their roles itself).
   */
  role?: Role | null;
  /**
   * `false` for a write that can never wait for an approval: it opens or closes a session, or answers
   * as a stream. Other writes may be put under an approval policy.
   */
  proposable?: false;
  /**
   * How a read's answer may be kept, where not as every other read's (`private, no-cache`, with an
   * entity tag and 304s: `sendJson`): sent as `Cache-Control`, without a tag. `no-store` for what a
   * credential names; a long lifetime for what never changes (a full tile of the log).
   */
  cacheControl?: string;
  /**
   * Its query parameters, an object of them: the route takes these and no others. One whose schema is
   * an array takes a list (repeated or comma-separated); the others, one value each.
   */
  query?: z.ZodType<Query> & Pick<z.ZodObject, 'shape'>;
  /** Path parameter schemas, for the description (values arrive as strings). */
  params?: z.ZodObject;
  body?: z.ZodType<Body>;
  /** The largest body it reads, in bytes (413 beyond); default `JSON_BODY_LIMIT_BYTES`. */
  bodyLimit?: number;
  /**
   * Response descriptions by status: a JSON schema, or a media type (with the schema of its text, a
   * string by default) and its description. An error without either answers the error envelope (a
   * GET's 422, the API's parameter error).
   */
  responses: Readonly<
    Record<
      number,
      {
        description: string;
        schema?: z.ZodType;
        mediaType?: string;
        /** Also answered as server-sent events (`Accept: text/event-stream`): what they carry. */
        stream?: string;
      }
    >
  >;
  handle(input: RouteInput<Query, Body>, services: Services): Promise<RouteAnswer>;
}

/**
 * An API whose routes the kit serves and describes from their declarations: a module, or the audit
 * API (which serves no read model, and whose routes each name the role they need).
 */
export interface RouteApi<Services = ModuleServices> {
  /** Prefixes its operationIds (`esm_listRequests`); a module's names the roles its routes need by default. */
  id: string;
  /** `detail`: 422 `{"detail": [...]}` for bad read parameters; `envelope`: the error envelope. */
  readErrors: 'detail' | 'envelope';
  /** Its access check, as described; none: public reads, bearer-token writes. */
  access?: AccessDescription;
  routes?: readonly ModuleRoute<unknown, unknown, Services>[];
  /** The records its by-id paths name: their ids are typed alike in every path. */
  resources?: readonly ResourceDefinition[];
  itemParam?: string;
  /** `false`: its reads serve no read model, so they take no `X-Min-Position` to wait for. */
  readsWait?: false;
}

/** A request the suite sends to a registered webhook, as the description names and describes it. */
export interface SentWebhook {
  name: string;
  summary: string;
  description: string;
  /** Its request headers, by name. */
  headers: z.ZodObject;
  body: z.ZodType;
}

export interface ModuleDefinition extends SuiteModule {
  title: string;
  /** As a navigation lists it: `HR`, `Contracts`. */
  shortTitle: string;
  description: string;
  /** Version of the module's interface description. */
  version: string;
  /** Name of the path parameter of by-id reads (`item_id` in the service desk). */
  itemParam: string;
  /** `detail`: 422 `{"detail": [...]}` for bad read parameters; `envelope`: the error envelope. */
  readErrors: 'detail' | 'envelope';
  list: { defaultLimit: number; maxLimit: number };
  resources: readonly ResourceDefinition[];
  /** Read models the projector writes beyond the resources' (served by the module's routes). */
  collections?: readonly CollectionDefinition[];
  /** The records its routes serve (beyond its resources'), whose changes its change feed carries too. */
  changes?: readonly FeedResource[];
  writes: readonly WriteRoute[];
  routes?: readonly ModuleRoute[];
  /** What its webhooks are sent (described under the description's `webhooks`). */
  webhooks?: readonly SentWebhook[];
  access?: ModuleAccess;
  events: readonly EventDefinition[];
  projector: Projector;
  /** Writes the module's demo data through its commands. */
  seed?: (context: SeedContext) => Promise<void>;
  /** The modules whose demo data its own names records of: written before it. */
  seedAfter?: readonly string[];
}

/** The role a write needs. */
export const writeRole = (module: ModuleDefinition, route: WriteRoute): Role =>
  route.role ?? `${module.id}:writer`;

/** The role a route needs: its own, or its module's reader or writer role (other APIs name theirs). */
export const routeRole = (
  api: Pick<RouteApi, 'id'>,
  route: Pick<ModuleRoute, 'role' | 'method'>,
): Role | undefined =>
  route.role === null
    ? undefined
    : (route.role ?? (`${api.id}:${route.method === 'get' ? 'reader' : 'writer'}` as Role));

/** Every read model a module's projector writes: its resources' and those its routes serve. */
export function moduleCollections(module: ModuleDefinition): CollectionDefinition[] {
  return [...module.resources.map((resource) => resource.collection), ...(module.collections ?? [])];
}

/** The collections of other records a module's reads join names from (another module's, perhaps). */
export function namedCollections(module: ModuleDefinition): CollectionDefinition[] {
  return module.resources.flatMap((resource) =>
    Object.values(resource.names ?? {}).map((reference) => reference.collection),
  );
}
