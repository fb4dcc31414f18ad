import { useParams } from 'react-router';
import { useSession } from './session';

/** The module a page is about (from its path), as the console's settings name it. */
export function useModuleParams() {
  const params = useParams();
  const { settings } = useSession();
  const module = settings.modules.find((candidate) => candidate.id === params.module);
  return { module, resource: params.resource, id: params.id };
}
