import type { RequestListener } from 'node:http';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import { esmModule } from '../../src/api/esm';
import { addAgent, addDepartment, addService, setAgentActive } from '../../src/commands/esm/handlers';
import {
  addDepartment as addHrDepartment,
  addOrganization,
  joinEmployee,
} from '../../src/commands/hrm/handlers';
import { loadConfig } from '../../src/config';
import { openSuite, startProjecting, type Suite } from '../../src/main';
import { createSeedContext } from '../../src/seed/context';
import { HALCYON_UK } from './organisations';
import { tempDir } from './temp-dir';

export const TOKEN = 'test-token-0123456789';
/** The server secret (SUITE_SESSION_SECRET): signs session cookies and keys token names on events. */
export const SERVER_SECRET = 'test-server-secret-0123456789abcdef';
export const NOW = new Date('2026-11-21T09:30:00Z');

export interface EsmHarness {
  app: RequestListener;
  suite: Suite;
  /** Ids of the fixture catalogue. */
  fixtures: {
    itDepartment: number;
    laptopService: number;
    accessService: number;
    retiredService: number;
    /** An active agent, another one, and one deactivated. */
    agent: number;
    otherAgent: number;
    formerAgent: number;
  };
  close(): Promise<void>;
}

/**
 * A service desk on a fresh store in a temp dir, with a fixed clock and a small catalogue written
 * through the module's commands: IT department, a laptop service (24h SLA), an access service that
 * requires approval, a retired (inactive) service, two active agents and a deactivated one.
 */
export async function openEsm(options: { token?: string | null } = {}): Promise<EsmHarness> {
  const { dir, cleanup } = tempDir();
  const token = options.token === undefined ? TOKEN : (options.token ?? undefined);
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  const suite = await openSuite(config, { logger: createLogger('silent'), clock: { now: () => NOW } });
  await startProjecting(suite);

  const seed = createSeedContext(suite.eventStore, suite.ids, 'fixtures');
  seed.at(new Date('2026-11-01T08:00:00Z'));
  const { id: itDepartment } = await addDepartment(seed.commands, { name: 'IT', icon: 'computer' });
  const service = (name: string, overrides: { requires_approval?: boolean; is_active?: boolean } = {}) =>
    addService(seed.commands, {
      name,
      department_id: itDepartment,
      category: 'Hardware',
      description: `${name} for staff`,
      icon: 'laptop',
      sla_hours: 24,
      requires_approval: false,
      form_schema: '{"type":"object"}',
      is_active: true,
      ...overrides,
    });
  const { id: laptopService } = await service('New laptop');
  const { id: accessService } = await service('System access', { requires_approval: true });
  const { id: retiredService } = await service('Fax line', { is_active: false });
  const agent = (name: string) => addAgent(seed.commands, { name, department_id: itDepartment });
  const { id: firstAgent } = await agent('Priya Raman');
  const { id: otherAgent } = await agent('Tom Okafor');
  const { id: formerAgent } = await agent('Lena Fischer');
  await setAgentActive(seed.commands, formerAgent, false);
  await suite.runtime.waitFor(await suite.eventStore.headPosition());

  const app = createModuleApp(esmModule, suite, { apiToken: token, sessionSecret: SERVER_SECRET });
  return {
    app,
    suite,
    fixtures: {
      itDepartment,
      laptopService,
      accessService,
      retiredService,
      agent: firstAgent,
      otherAgent,
      formerAgent,
    },
    async close() {
      await suite.close();
      cleanup();
    },
  };
}

/** An employee (HR) who may ask the desk, in an organisation and department of their own: their id. */
export async function addRequester(suite: Suite, first_name = 'Ana', last_name = 'Silva'): Promise<number> {
  const seed = createSeedContext(suite.eventStore, suite.ids, `requester ${first_name}`);
  seed.at(new Date('2026-11-01T08:00:00Z'));
  const organisation = await addOrganization(seed.commands, HALCYON_UK);
  const department = await addHrDepartment(seed.commands, {
    name: 'Finance',
    code: 'FIN',
    parent_department_id: null,
    cost_center: 'CC-FIN',
  });
  const { id } = await joinEmployee(seed.commands, {
    first_name,
    last_name,
    company_email: `${first_name.toLowerCase()}@halcyon.example`,
    designation: 'Accountant',
    department_id: department.id,
    organization_id: organisation.id,
    reports_to: null,
    employment_type: 'Full-time',
    work_location: 'Manchester',
    country: 'GB',
    date_of_joining: '2020-01-06',
  });
  await suite.runtime.waitFor(await suite.eventStore.headPosition());
  return id;
}
