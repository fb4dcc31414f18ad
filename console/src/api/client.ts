/** One problem the API found with a field: `loc` names it, as in `["body", "employee_id"]`. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** An answer other than 2xx, read from the suite's error envelope (or a module's `detail` list). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: FieldIssue[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Envelope {
  error?: { code?: string; message?: string; details?: { issues?: FieldIssue[] } & Record<string, unknown> };
  detail?: FieldIssue[];
}

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: Envelope;
  try {
    body = JSON.parse(text) as Envelope;
  } catch {
    return new ApiError(response.status, 'http_error', text || response.statusText);
  }
  if (body.error) {
    const { code = 'http_error', message = response.statusText, details = {} } = body.error;
    return new ApiError(response.status, code, message, details.issues ?? [], details);
  }
  const issues = body.detail ?? [];
  const message = issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ');
  return new ApiError(response.status, 'validation_error', message || response.statusText, issues);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Told of every credential a port answered 401 to: revoked, expired, or never valid. */
type RefusalListener = (token: string) => void;
const refusalListeners = new Set<RefusalListener>();

/** Calls `listener` with each credential a port refuses (401), on any request; answers how to stop. */
export function onCredentialRefused(listener: RefusalListener): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

/**
 * A request to one of the suite's ports; answers the response for a 2xx, else throws its `ApiError`.
 * A 401 to a credential is told to the `onCredentialRefused` listeners first.
 */
export async function request(url: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'omit',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'unreachable', `${new URL(url).host} could not be reached`);
  }
  if (response.status === 401 && options.token)
    for (const listener of refusalListeners) listener(options.token);
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function requestJson<T>(url: string, options: RequestOptions = {}): Promise<T> {
  return (await (await request(url, options)).json()) as T;
}
