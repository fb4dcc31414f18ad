import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, onCredentialRefused, requestJson } from './client';
import type { Principal } from './principal';
import { originOf, type ConsoleSettings } from './settings';

/**
 * The credential lives in this tab's session storage: it survives a reload, is gone with the tab, and
 * is never a cookie (which the browser would send to every port of the host).
 */
const TOKEN_KEY = 'suite-console.token';

interface Session {
  settings: ConsoleSettings;
  token: string | undefined;
  principal: Principal | undefined;
  /** Checks the token against the suite and keeps it when it names a principal; throws the API's error. */
  signIn(token: string): Promise<Principal>;
  signOut(): void;
  /** Where a module's API is. */
  moduleUrl(module: string): string;
  auditUrl: string;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in principal; only for pages behind the sign-in. */
export function usePrincipal(): Principal & { token: string } {
  const { principal, token } = useSession();
  if (!principal || !token) throw new Error('usePrincipal on a page that needs no sign-in');
  return { ...principal, token };
}

const storedToken = () => sessionStorage.getItem(TOKEN_KEY) ?? undefined;

/** Whether another port may answer instead: this one could not be reached, or cannot serve now. */
const portUnavailable = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || error.status >= 500);

/**
 * Whom a credential names, asked of each module's port and then the audit API's until one answers:
 * any of them serves `GET /api/v1/me`, so signing in does not depend on one module being up. A refusal
 * (401, 403) is the answer; only an unreachable or failing port is passed over.
 */
async function whoIs(urls: readonly string[], token: string): Promise<Principal> {
  let failure: unknown = new Error('The suite serves no port to ask');
  for (const url of urls) {
    try {
      return await requestJson<Principal>(url, { token });
    } catch (error) {
      if (!portUnavailable(error)) throw error;
      failure = error;
    }
  }
  throw failure;
}

export function SessionProvider({ settings, children }: { settings: ConsoleSettings; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(storedToken);
  const meUrls = useMemo(
    () =>
      [...settings.modules.map((module) => module.port), settings.audit.port].map(
        (port) => `${originOf(port)}/api/v1/me`,
      ),
    [settings],
  );
  const principal = useQuery({
    queryKey: ['me', token],
    queryFn: () => whoIs(meUrls, token as string),
    enabled: token !== undefined,
    staleTime: Infinity,
    retry: false,
  });

  const signIn = useCallback(
    async (candidate: string) => {
      const named = await whoIs(meUrls, candidate);
      queryClient.clear();
      queryClient.setQueryData(['me', candidate], named);
      sessionStorage.setItem(TOKEN_KEY, candidate);
      setToken(candidate);
      return named;
    },
    [meUrls, queryClient],
  );
  const signOut = useCallback(() => {
    sessionStorage.removeItem(TOKEN_KEY);
    queryClient.clear();
    setToken(undefined);
  }, [queryClient]);

  const value = useMemo<Session>(() => {
    const ports = new Map(settings.modules.map((module) => [module.id, module.port]));
    return {
      settings,
      token: principal.data ? token : undefined,
      principal: principal.data,
      signIn,
      signOut,
      moduleUrl: (module) => originOf(ports.get(module) ?? 0),
      auditUrl: originOf(settings.audit.port),
    };
  }, [settings, token, principal.data, signIn, signOut]);

  // The credential is dropped the moment any port refuses it (revoked, expired): not at the next reload.
  useEffect(
    () =>
      onCredentialRefused((refusedToken) => {
        if (refusedToken === token) signOut();
      }),
    [token, signOut],
  );
  // A stored token that no longer names anyone (revoked, expired), or that no port could check, is forgotten.
  const refused = principal.isError && token !== undefined;
  useEffect(() => {
    if (refused) signOut();
  }, [refused, signOut]);
  if (token !== undefined && principal.isPending) return null;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
