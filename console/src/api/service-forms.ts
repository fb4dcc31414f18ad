import { useQuery } from '@tanstack/react-query';
import { useModuleRequest, type Page } from './module-request';
import type { JsonSchema, OpenApi, WriteOperation } from './openapi';
import { bodySchema } from './openapi';

/** A catalogue service whose form a request fills in. */
export interface Service {
  id: number;
  name: string;
  is_active: boolean | number;
  form_schema: string | null;
}

/**
 * Whether a write submits a service's form: its body names the service (`service_id`) and carries the
 * form's answers as text (`form_data`), as the service desk's `POST /api/v1/requests` does.
 */
export function fillsServiceForm(api: OpenApi, write: WriteOperation): boolean {
  const properties = bodySchema(api, write)?.properties ?? {};
  return 'service_id' in properties && 'form_data' in properties && '/api/v1/services' in api.paths;
}

/** The module's active services, by name. */
export function useActiveServices(module: string, enabled: boolean) {
  const call = useModuleRequest(module);
  return useQuery({
    queryKey: ['module', module, 'list', 'services', 'active-for-forms'],
    queryFn: () => call<Page<Service>>('/api/v1/services?limit=200'),
    select: (page) => page.data.filter((service) => service.is_active === true || service.is_active === 1),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** A service's form (JSON Schema, stored as text); none when it has none or it is not an object schema. */
export function formSchemaOf(service: Service | undefined): JsonSchema | undefined {
  if (!service?.form_schema) return undefined;
  try {
    const schema = JSON.parse(service.form_schema) as JsonSchema;
    return schema.type === 'object' && schema.properties ? schema : undefined;
  } catch {
    return undefined;
  }
}
