import { useQuery } from '@tanstack/react-query';
import { requestJson } from './client';
import type { OpenApi } from './openapi';
import { useSession } from './session';

/** A module's OpenAPI description: its tables, writes and the headers it needs are read from it. */
export function useOpenApi(module: string) {
  const { moduleUrl } = useSession();
  return useQuery({
    queryKey: ['openapi', module],
    queryFn: () => requestJson<OpenApi>(`${moduleUrl(module)}/api/openapi.json`),
    staleTime: Infinity,
  });
}

/** What the console should send with each request to a module: its credential and the headers it needs. */
const HEADERS_KEY = (module: string) => `suite-console.headers.${module}`;

export function moduleHeaders(module: string): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(HEADERS_KEY(module)) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

export function saveModuleHeaders(module: string, headers: Record<string, string>): void {
  const kept = Object.fromEntries(Object.entries(headers).filter(([, value]) => value.trim() !== ''));
  sessionStorage.setItem(HEADERS_KEY(module), JSON.stringify(kept));
}
