import { useCallback } from 'react';
import { requestJson, type RequestOptions } from './client';
import { moduleHeaders } from './modules';
import { useSession } from './session';

/** Requests to a module's port, with the signed-in credential and the headers the module takes. */
export function useModuleRequest(module: string) {
  const { moduleUrl, token } = useSession();
  return useCallback(
    <T>(path: string, options: RequestOptions = {}) =>
      requestJson<T>(`${moduleUrl(module)}${path}`, {
        ...options,
        token,
        headers: { ...moduleHeaders(module), ...options.headers },
      }),
    [module, moduleUrl, token],
  );
}

/** A page of a list: its records and the exact total. */
export interface Page<T = Record<string, unknown>> {
  data: T[];
  meta: { total: number; limit: number; offset: number };
}
