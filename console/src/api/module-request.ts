import { useCallback } from 'react';
import { requestJson, type RequestOptions } from './client';
import { moduleHeaders } from './modules';
import { useSession } from './session';

/**
 * Requests to the modules' ports, each to the module it names, with the signed-in credential and the
 * headers that module takes.
 */
export function useModulesRequest() {
  const { moduleUrl, token } = useSession();
  return useCallback(
    <T>(module: string, path: string, options: RequestOptions = {}) =>
      requestJson<T>(`${moduleUrl(module)}${path}`, {
        ...options,
        token,
        headers: { ...moduleHeaders(module), ...options.headers },
      }),
    [moduleUrl, token],
  );
}

/** Requests to a module's port (see `useModulesRequest`). */
export function useModuleRequest(module: string) {
  const request = useModulesRequest();
  return useCallback(
    <T>(path: string, options?: RequestOptions) => request<T>(module, path, options),
    [module, request],
  );
}

/** A page of a list: its records and the exact total. */
export interface Page<T = Record<string, unknown>> {
  data: T[];
  meta: { total: number; limit: number; offset: number };
}
