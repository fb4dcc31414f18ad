import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import pino from 'pino';
import { hrmModule } from '../../src/api/hrm';
import { CONSOLE_ROOT, consoleBuilt, createConsoleApp, servingFiles } from '../../src/api/console';
import { loggingObserver, served } from '../../src/api/kit/observation';
import { requireApproval } from '../../src/approvals/policies';
import { operatorContext } from '../../src/cli/common';
import { addDepartment, addOrganization, joinEmployee } from '../../src/commands/hrm/handlers';
import {
  addAgent,
  addDepartment as addDeskDepartment,
  addService,
  changeRequest,
  draftArticle,
  submitRequest,
} from '../../src/commands/esm/handlers';
import { DEFAULT_PORTS, loadConfig } from '../../src/config';
import { issueKey } from '../../src/iam';
import { bundleProblem } from '../../src/log-proofs/evidence';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { openSuite } from '../../src/main';
import { createSeedContext } from '../../src/seed/context';
import { eventually } from '../support/eventually';
import { writeMarketFixtures } from '../support/market-fixtures';
import { startSuiteProcess, stopSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { HALCYON_UK } from '../support/organisations';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

/** Debian's Chromium (`.ci/run` installs it): the tests drive no browser build of their own. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The service desk's port; the other listeners follow it, the console on PORT + 12. */
const PORT = 31_281;
const CONSOLE = `http://127.0.0.1:${PORT + 12}`;
const AUDIT = `http://127.0.0.1:${PORT + 10}`;
const SESSION_SECRET = 'console-test-session-secret-0123456789abcdef';
const ADMIN_TOKEN = 'console-test-admin-token-0123456789';
const LEAVE_DECISION = 'PATCH /api/v1/leave/{id}';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface People {
  writer: string;
  approver: string;
  auditor: string;
  /** A writer's key the story revokes while it is signed in. */
  revocable: { id: string; token: string };
  employee: number;
  manager: number;
  /** A service desk agent, and the key of the person who works as them (the same name). */
  agent: { id: number; token: string };
  /** The desk's requests: the agent's (a Low one, then an Urgent one, due sooner) and an unassigned one. */
  requests: { low: string; urgent: string; unassigned: string };
  /** A knowledge article in draft. */
  article: number;
}

/** A service whose form asks what a laptop request needs. */
const LAPTOP_FORM = {
  type: 'object',
  title: 'New laptop',
  properties: {
    model: { type: 'string', title: 'Model', enum: ['Standard 14-inch', 'Performance 16-inch'] },
    needed_by: { type: 'string', title: 'Needed by', format: 'date' },
    cost_centre: { type: 'string', title: 'Cost centre', pattern: '^CC-[0-9]{4}$' },
  },
  required: ['model', 'cost_centre'],
};

/** The service desk's part: an agent, a service with its form, and three open requests made now. */
async function prepareDesk(seed: ReturnType<typeof createSeedContext>) {
  const { commands, at } = seed;
  // Made now, so that their due times are ahead and order the agent's queue.
  at(new Date());
  const it = await addDeskDepartment(commands, { name: 'IT', icon: 'computer' });
  const service = await addService(commands, {
    name: 'New laptop',
    department_id: it.id,
    category: 'Hardware',
    description: 'A laptop for a new starter or a replacement',
    icon: 'laptop',
    sla_hours: 16,
    requires_approval: false,
    form_schema: JSON.stringify(LAPTOP_FORM),
    is_active: true,
  });
  const agent = await addAgent(commands, { name: 'Priya Raman', department_id: it.id });
  const request = async (title: string, priority: 'Low' | 'Urgent', assigned: boolean) => {
    const made = await submitRequest(commands, {
      title,
      status: 'Open',
      priority,
      service_id: service.id,
      department_id: null,
      requester_id: null,
      form_data: null,
    });
    if (assigned) await changeRequest(commands, made.id, { assignee_id: agent.id });
    return String(made.id);
  };
  const article = await draftArticle(commands, {
    title: 'Reset your password',
    content: 'Open the sign-in page and choose Forgot password.',
    category_id: null,
    department_id: it.id,
    author: 'Priya Raman',
  });
  return {
    agent: agent.id,
    article: article.id,
    requests: {
      low: await request('Second monitor for the design team', 'Low', true),
      urgent: await request('Laptop will not start before a client pitch', 'Urgent', true),
      unassigned: await request('Docking station for a hot desk', 'Low', false),
    },
  };
}

/**
 * The data the story needs, written before the suite starts: an employee and their manager, three
 * clinic groups of the market, a writer, an approver and an auditor of their own (API keys), and leave
 * decisions held back for approval.
 */
async function prepare(dir: string): Promise<People> {
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SESSION_SECRET: SESSION_SECRET });
  const suite = await openSuite(config, { logger: pino({ level: 'silent' }) });
  try {
    const seed = createSeedContext(suite.eventStore, suite.ids, 'console');
    const { commands, at } = seed;
    at(new Date('2026-11-02T08:00:00Z'));
    const organisation = await addOrganization(commands, HALCYON_UK);
    const department = await addDepartment(commands, {
      name: 'Engineering',
      code: 'ENG',
      parent_department_id: null,
      cost_center: 'CC-ENG',
    });
    const person = (first_name: string, last_name: string, reports_to: number | null) =>
      joinEmployee(commands, {
        first_name,
        last_name,
        company_email: `${first_name.toLowerCase()}@halcyon.example`,
        designation: 'Software Engineer',
        department_id: department.id,
        organization_id: organisation.id,
        reports_to,
        employment_type: 'Full-time',
        work_location: 'Manchester',
        country: 'GB',
        date_of_joining: '2020-01-06',
      });
    const manager = await person('Ada', 'Lovelace', null);
    const employee = await person('Grace', 'Hopper', manager.id);
    await writeMarketFixtures(seed);
    const desk = await prepareDesk(seed);
    const operator = operatorContext(suite);
    const issued = (name: string, role: 'hrm:writer' | 'hrm:approver' | 'esm:writer' | 'auditor') =>
      issueKey(
        operator,
        { name, roles: [role], member: null, workspace: null, expiresIn: null },
        SESSION_SECRET,
      );
    const key = async (name: string, role: 'hrm:writer' | 'hrm:approver' | 'auditor') =>
      (await issued(name, role)).token;
    await requireApproval(operator, hrmModule, LEAVE_DECISION, 'hrm:approver');
    return {
      writer: await key('Wendy Writer', 'hrm:writer'),
      approver: await key('Alice Approver', 'hrm:approver'),
      auditor: await key('Otto Auditor', 'auditor'),
      revocable: await issued('Rita Revocable', 'hrm:writer'),
      employee: employee.id,
      manager: manager.id,
      agent: { id: desk.agent, token: (await issued('Priya Raman', 'esm:writer')).token },
      requests: desk.requests,
      article: desk.article,
    };
  } finally {
    await suite.close();
  }
}

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Serious and critical axe-core findings on the page at rest (the pointer on nothing, which a phone
 * has not), at a desktop's size and at a phone's, once its transitions have ended (a dialog fading in
 * has its final colours only then): none are allowed. The page is left at the size it had.
 */
async function expectAccessible(page: Page): Promise<void> {
  const size = page.viewportSize() ?? DESKTOP;
  await page.mouse.move(0, 0);
  try {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      // The new size's styles apply, and their transitions start, by the second frame.
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const window = globalThis as unknown as { requestAnimationFrame(then: () => void): void };
            window.requestAnimationFrame(() => window.requestAnimationFrame(() => resolve(undefined)));
          }),
      );
      await expectAccessibleAtItsSize(page);
    }
  } finally {
    await page.setViewportSize(size);
  }
}

async function expectAccessibleAtItsSize(page: Page): Promise<void> {
  const violations = await page.evaluate(async () => {
    type Animation = {
      finished: Promise<unknown>;
      effect: { getComputedTiming(): { endTime: number } } | null;
    };
    const { document } = globalThis as unknown as { document: { getAnimations(): Animation[] } };
    // Spinners never end; an animation cancelled meanwhile rejects, and has ended all the same.
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    type Axe = { run(options: object): Promise<{ violations: AxeViolation[] }> };
    const { axe } = globalThis as unknown as { axe: Axe };
    // Only the violations are wanted: axe then builds no result for the nodes that pass.
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  });
  const at = `${page.viewportSize()?.width}px`;
  expect({ url: page.url(), at, violations }).toEqual({ url: page.url(), at, violations: [] });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

async function signIn(page: Page, token: string, name: string): Promise<void> {
  // Whoever a failed story left signed in is forgotten: each story starts at the sign-in.
  await page.goto(`${CONSOLE}/`);
  await page.evaluate(() =>
    (globalThis as unknown as { sessionStorage: { clear(): void } }).sessionStorage.clear(),
  );
  await page.goto(`${CONSOLE}/`);
  await page.getByLabel('API key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('principal-name').getByText(name).waitFor();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
}

/** Whether an element is on screen whole, at the page's current size: not off its side. */
async function expectWithinViewport(page: Page, element: ReturnType<Page['locator']>): Promise<void> {
  await element.scrollIntoViewIfNeeded();
  const box = await element.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box).not.toBeNull();
  expect({ left: box!.x >= 0, right: box!.x + box!.width <= width }).toEqual({ left: true, right: true });
}

/** A page of the console once it has loaded: its heading is shown and nothing is loading any more. */
async function settled(page: Page, heading: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.getByLabel('Loading').first().waitFor({ state: 'detached' });
}

/** A page the console went to by a link (at `path`) once it has loaded: its heading shown, nothing loading. */
async function arrived(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.getByLabel('Loading').first().waitFor({ state: 'detached' });
}

/** The latest signed checkpoint, once the suite has signed one. */
async function checkpointOf(token: string): Promise<string> {
  const answer = await eventually(
    'a signed checkpoint',
    () => fetch(`${AUDIT}/api/v1/checkpoint`, { headers: { Authorization: `Bearer ${token}` } }),
    (response) => response.ok,
    { intervalMs: 200 },
  );
  return answer.text();
}
const treeSize = (checkpoint: string) => Number(checkpoint.split('\n')[1]);

const chromiumMissing = !existsSync(CHROMIUM);
const describeWithChromium = chromiumMissing ? describe.skip : describe;
if (chromiumMissing) {
  // Named so that a run without it says why: .ci/run installs it.
  console.warn(`console browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

describeWithChromium('the console in a browser (Debian Chromium)', () => {
  const { dir, cleanup } = tempDir();
  let people: People;
  /** The checkpoint an auditor kept before the story's writes. */
  let saved: string;
  let suite: SuiteProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!consoleBuilt()) throw new Error(`The console is not built in ${CONSOLE_ROOT}: run npm run build`);
    people = await prepare(dir);
    const env = {
      SUITE_DATA_DIR: dir,
      SUITE_SEED: 'none',
      SUITE_SESSION_SECRET: SESSION_SECRET,
      SUITE_API_TOKEN: ADMIN_TOKEN,
    };
    [suite, browser] = await Promise.all([
      startSuiteProcess(env, PORT, { waitMs: 30_000 }),
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS }),
    ]);
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    await context.addInitScript({ content: AXE });
    saved = await checkpointOf(people.auditor);
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) {
        pageErrors.push(message.text());
      }
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (suite) await stopSuiteProcess(suite);
    cleanup();
  });

  afterEach(() => expect(pageErrors).toEqual([]));

  it('a writer signs in, submits leave through the generated form, and proposes its approval', async () => {
    await page.goto(`${CONSOLE}/m/hrm/leave`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('API key').fill('not-a-key-of-anyone-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The suite does not know this credential').waitFor();
    await page.getByLabel('API key').fill(people.writer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('principal-name').getByText('Wendy Writer').waitFor();
    await expect(page.getByTestId('principal-roles').textContent()).resolves.toContain('hrm:writer');
    // Back where the sign-in was asked for.
    await settled(page, 'Leave');
    await expectAccessible(page);
    const navigation = page.getByRole('navigation', { name: 'Console' });
    for (const module of ['Service desk', 'Contracts', 'HR', 'Market', 'Portfolio', 'CRM', 'Learning']) {
      await navigation.getByRole('link', { name: module, exact: true }).waitFor();
    }
    for (const module of ['Content', 'Mailbox', 'Financial planning', 'Approvals']) {
      await navigation.getByRole('link', { name: module, exact: true }).waitFor();
    }
    await navigation.getByRole('link', { name: 'HR', exact: true }).click();
    await settled(page, 'HR and recruitment');
    await expectAccessible(page);
    await navigation.getByRole('link', { name: 'Employees', exact: true }).click();
    await settled(page, 'Employees');
    await page.getByLabel('Search').fill('grace');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByTestId('total').getByText('1 record').waitFor();
    await page.getByRole('cell', { name: 'Grace', exact: true }).waitFor();

    await navigation.getByRole('link', { name: 'Leave', exact: true }).click();
    await settled(page, 'Leave');
    await page.getByTestId('total').getByText('0 records').waitFor();
    await page.getByRole('link', { name: 'Submit a leave application (Open)' }).click();
    await settled(page, 'Submit a leave application (Open)');
    await expectAccessible(page);
    // The API's validation errors are shown at their fields.
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('The write was refused (422 validation_error)').waitFor();
    const employee = page.getByRole('textbox', { name: 'Employee', exact: true });
    await expect(employee.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('Field required').first().waitFor();
    await expectAccessible(page);
    await employee.fill(String(people.employee));
    await page.getByLabel('Leave type').selectOption('Annual Leave');
    await page.getByLabel('From date').fill('2026-12-14');
    await page.getByLabel('To date').fill('2026-12-18');
    await page.getByRole('button', { name: 'Submit' }).click();
    await settled(page, /^Leave \d+ · Grace Hopper$/);
    const leave = page.url().split('/').pop() as string;
    await page.locator('[data-field="status"]').getByText('Open').waitFor();
    // A reference by the name of what it names, linked to it.
    await page.locator('[data-field="employee_id"]').getByRole('link', { name: 'Grace Hopper' }).waitFor();
    await expectAccessible(page);

    // The generic form of the write: the record is named, not an editable id; its values filled in;
    // only the statuses the leave may move to offered.
    await page.getByRole('link', { name: 'Approve, reject or cancel a leave application' }).click();
    await settled(page, 'Approve, reject or cancel a leave application');
    await page.getByTestId('write-target').getByText(`Leave ${leave} · Grace Hopper`).waitFor();
    await expect(page.getByRole('textbox', { name: 'Id', exact: true }).count()).resolves.toBe(0);
    const offered = await page.getByLabel('Status').locator('option').allTextContents();
    expect(offered).toEqual(['Choose…', 'Approved', 'Rejected', 'Cancelled']);
    await page.goBack();

    // The named actions propose the decisions, each held back: two conflicting proposals on one leave.
    await settled(page, /^Leave \d+ · Grace Hopper$/);
    await page.getByRole('button', { name: 'Approve leave' }).click();
    const approve = page.getByRole('dialog', { name: 'Approve leave' });
    const preview = approve.getByRole('table', { name: 'The change' });
    await preview.getByRole('row').filter({ hasText: 'Status' }).getByText('Open').waitFor();
    await preview.getByRole('row').filter({ hasText: 'Status' }).getByText('Approved').waitFor();
    await expectAccessible(page);
    await approve.getByRole('button', { name: 'Approve leave' }).click();
    await approve.getByText('Held back for approval').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Reject leave' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject leave' });
    await reject.getByRole('button', { name: 'Reject leave' }).click();
    await reject.getByText('Held back for approval').waitFor();
    await page.keyboard.press('Escape');

    await navigation.getByRole('link', { name: /^Approvals/ }).click();
    await settled(page, 'Approvals');
    const mine = page.getByRole('article', { name: `Proposal: Leave ${leave} · Grace Hopper` });
    await mine.nth(1).waitFor();
    await expect(mine.count()).resolves.toBe(2);
    await mine.first().getByText('pending', { exact: true }).waitFor();
    await expect(page.getByText('Nothing is waiting for you.').isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await signOut(page);
  });

  it('an HR manager approves the leave with the change previewed, warned of the conflicting proposal', async () => {
    await signIn(page, people.approver, 'Alice Approver');
    const navigation = page.getByRole('navigation', { name: 'Console' });
    // The navigation counts what waits for the manager.
    await navigation.getByRole('link', { name: /^Approvals\s*2\s*waiting for your decision$/ }).click();
    await settled(page, 'Approvals');
    const proposals = page.getByRole('article', { name: /^Proposal: Leave \d+ · Grace Hopper$/ });
    await proposals.nth(1).waitFor();
    await expect(proposals.count()).resolves.toBe(2);
    const approving = proposals.filter({
      has: page.getByRole('row').filter({ hasText: 'Status' }).filter({ hasText: 'Approved' }),
    });
    // The change as before and after, who proposed it and when, and the other proposal it conflicts with.
    const change = approving.getByRole('table', { name: /^The change to Leave \d+/ });
    await change.getByRole('row').filter({ hasText: 'Status' }).getByText('Open').waitFor();
    await approving.getByText(/^Proposed by Wendy Writer (this minute|\d+ minutes? ago)/).waitFor();
    await approving.getByText('Conflicts with other pending proposals').waitFor();
    await expectAccessible(page);
    await approving.getByRole('button', { name: 'Approve' }).click();
    await expect(proposals.count()).resolves.toBeGreaterThan(0);
    await eventually(
      'one proposal left to decide',
      () => proposals.count(),
      (count) => count === 1,
      { intervalMs: 100 },
    );
    // The other is rejected with a reason.
    await proposals.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject the proposal' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Approved instead');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Nothing is waiting for you.').waitFor();
    await expectAccessible(page);

    await page.goto(`${CONSOLE}/m/hrm/leave?status=Approved`);
    await settled(page, 'Leave');
    await page.getByTestId('total').getByText('1 record').waitFor();
    await page.getByRole('cell', { name: 'Approved' }).waitFor();
    await signOut(page);
  });

  it("an agent's day: my queue by due time, a reply, an internal note, the request resolved, its timeline", async () => {
    await signIn(page, people.agent.token, 'Priya Raman');
    const navigation = page.getByRole('navigation', { name: 'Console' });
    await navigation.getByRole('link', { name: 'Service desk', exact: true }).click();
    await navigation.getByRole('link', { name: 'Requests', exact: true }).click();
    await settled(page, 'Requests');
    // Newest first by default.
    const refs = page.getByRole('table', { name: 'Requests' }).getByRole('row').locator('td:first-child');
    await expect(refs.first().textContent()).resolves.toBe(
      `REQ-${people.requests.unassigned.padStart(6, '0')}`,
    );
    await expectAccessible(page);

    await page.getByRole('navigation', { name: 'Queues' }).getByRole('link', { name: 'My queue' }).click();
    await page.getByTestId('total').getByText('2 records').waitFor();
    const view = new URL(page.url()).searchParams;
    expect(view.get('assignee_id')).toBe(String(people.agent.id));
    expect(view.get('sort')).toMatch(/^(resolution_by|response_by|sla_changes_at)$/);
    // Earliest due first: the Urgent request, made after the Low one.
    await expect(refs.allTextContents()).resolves.toEqual(
      [people.requests.urgent, people.requests.low].map((id) => `REQ-${id.padStart(6, '0')}`),
    );
    // Names, not ids, linked to the records they name.
    const rows = page.getByRole('table', { name: 'Requests' }).getByRole('row');
    await rows.nth(1).getByRole('link', { name: 'Priya Raman' }).waitFor();
    await expectAccessible(page);
    // A saved view: the address brings it back.
    await page.reload();
    await page.getByTestId('total').getByText('2 records').waitFor();
    await expect(
      page
        .getByRole('navigation', { name: 'Queues' })
        .getByRole('link', { name: 'My queue' })
        .getAttribute('aria-current'),
    ).resolves.toBe('page');

    await rows.nth(1).getByRole('link').first().click();
    await settled(page, /^Request REQ-\d+ · Laptop will not start/);
    await page.getByRole('button', { name: 'Reply', exact: true }).click();
    const reply = page.getByRole('dialog', { name: 'Reply' });
    await reply.getByRole('textbox', { name: 'Body' }).fill('A loan laptop is on its way to you.');
    await expectAccessible(page);
    await reply.getByRole('button', { name: 'Reply' }).click();
    await reply.waitFor({ state: 'detached' });
    // A reply to an Open request moves it to Replied.
    await page.locator('[data-field="status"]').getByText('Replied').waitFor();
    await page.getByRole('article', { name: 'Reply by Priya Raman' }).getByText('A loan laptop').waitFor();

    await page.getByRole('button', { name: 'Add internal note' }).click();
    const note = page.getByRole('dialog', { name: 'Add internal note' });
    await note.getByRole('textbox', { name: 'Body' }).fill('Disk failure; replace under warranty.');
    await note.getByRole('button', { name: 'Add internal note' }).click();
    await note.waitFor({ state: 'detached' });
    await page.getByRole('article', { name: 'Internal note by Priya Raman' }).waitFor();

    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    const resolve = page.getByRole('dialog', { name: 'Resolve' });
    const change = resolve
      .getByRole('table', { name: 'The change' })
      .getByRole('row')
      .filter({ hasText: 'Status' });
    await change.getByText('Replied').waitFor();
    await change.getByText('Resolved').waitFor();
    await resolve.getByRole('button', { name: 'Resolve' }).click();
    await resolve.waitFor({ state: 'detached' });
    await page.locator('[data-field="status"]').getByText('Resolved').waitFor();
    // Only the valid next steps: a resolved request is reopened or closed, not resolved again.
    await page.getByRole('button', { name: 'Reopen' }).waitFor();
    await expect(page.getByRole('button', { name: 'Resolve', exact: true }).count()).resolves.toBe(0);
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByRole('article').nth(1).waitFor();
    await expect(activity.getByRole('article').count()).resolves.toBe(2);
    await expectAccessible(page);

    // At a phone's size: the record's actions and Sign out within reach, the table stacked.
    await page.setViewportSize(PHONE);
    try {
      await expectAccessible(page);
      await expectWithinViewport(page, page.getByRole('button', { name: 'Sign out' }));
      await expectWithinViewport(page, page.getByRole('button', { name: 'Reopen' }));
      await page.goto(`${CONSOLE}/m/esm/requests?unassigned=true`);
      await settled(page, 'Requests');
      await page.getByTestId('total').getByText('1 record').waitFor();
      await expectWithinViewport(page, rows.nth(1).getByRole('link').first());
      await expectAccessible(page);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it("a request made through its service's own form, not raw JSON", async () => {
    await signIn(page, people.agent.token, 'Priya Raman');
    await page.goto(`${CONSOLE}/m/esm/requests`);
    await settled(page, 'Requests');
    await page.getByRole('link', { name: 'Submit a service request' }).click();
    await settled(page, 'Submit a service request');
    await expect(page.getByLabel('Form data').count()).resolves.toBe(0);
    await page.getByLabel('Service', { exact: true }).selectOption({ label: 'New laptop' });
    await page.getByLabel(/^Title/).fill('Laptop for a new analyst');
    await page.getByLabel(/^Status/).selectOption('Open');
    await page.getByLabel(/^Priority/).selectOption('Medium');
    await page.getByLabel(/^Model/).selectOption('Performance 16-inch');
    await page.getByLabel(/^Cost centre/).fill('4120');
    await page.getByRole('button', { name: 'Submit' }).click();
    // The service's form is checked here: the desk stores its answers as given.
    await page.getByText('Should match ^CC-[0-9]{4}$').waitFor();
    await expectAccessible(page);
    await page.getByLabel(/^Cost centre/).fill('CC-4120');
    await page.getByRole('button', { name: 'Submit' }).click();
    await settled(page, /^Request REQ-\d+ · Laptop for a new analyst$/);
    const formData = JSON.parse((await page.locator('[data-field="form_data"]').textContent()) ?? '');
    expect(formData).toEqual({ model: 'Performance 16-inch', cost_centre: 'CC-4120' });
    await signOut(page);
  });

  it('an agent publishes a draft knowledge article by its named action; then only Archive is offered', async () => {
    await signIn(page, people.agent.token, 'Priya Raman');
    await page.goto(`${CONSOLE}/m/esm/knowledge/${people.article}`);
    await settled(page, `Knowledge article ${people.article} · Reset your password`);
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publish = page.getByRole('dialog', { name: 'Publish' });
    const change = publish
      .getByRole('table', { name: 'The change' })
      .getByRole('row')
      .filter({ hasText: 'Status' });
    await change.getByText('Draft').waitFor();
    await change.getByText('Published').waitFor();
    await publish.getByRole('button', { name: 'Publish' }).click();
    await publish.waitFor({ state: 'detached' });
    await page.locator('[data-field="status"]').getByText('Published').waitFor();
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Publish', exact: true }).count()).resolves.toBe(0);
    await signOut(page);
  });

  it('loads at most 250 kB of JavaScript as transferred, and revalidates the descriptions with 304s on a reload', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const fresh = await context.newPage();
      const network = await context.newCDPSession(fresh);
      await network.send('Network.enable');
      const scripts = new Set<string>();
      const transferred = new Map<string, number>();
      const statuses: { url: string; status: number }[] = [];
      const urls = new Map<string, string>();
      network.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
      network.on('Network.responseReceived', (event) => {
        if (event.type === 'Script') scripts.add(event.requestId);
      });
      network.on('Network.loadingFinished', (event) =>
        transferred.set(event.requestId, event.encodedDataLength),
      );
      // The status on the wire: a revalidated answer is a 304, which the page itself reads as its 200.
      network.on('Network.responseReceivedExtraInfo', (event) =>
        statuses.push({ url: urls.get(event.requestId) ?? event.requestId, status: event.statusCode }),
      );
      await fresh.goto(`${CONSOLE}/`);
      await fresh.getByRole('button', { name: 'Sign in' }).waitFor();
      await fresh.waitForLoadState('networkidle');
      const firstLoad = [...scripts].reduce((sum, id) => sum + (transferred.get(id) ?? 0), 0);
      expect(firstLoad).toBeGreaterThan(0);
      expect(firstLoad).toBeLessThan(FIRST_LOAD_BUDGET_BYTES);

      await fresh.getByLabel('API key').fill(people.agent.token);
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.getByTestId('principal-name').getByText('Priya Raman').waitFor();
      await fresh.goto(`${CONSOLE}/m/esm/requests`);
      await settled(fresh, 'Requests');
      await fresh.waitForLoadState('networkidle');
      statuses.length = 0;
      await fresh.reload();
      await settled(fresh, 'Requests');
      const described = () => statuses.filter((answer) => answer.url.endsWith('/api/openapi.json'));
      // The navigation asks again for the modules' descriptions; a loaded machine may be slow to.
      await eventually(
        'the descriptions asked again',
        async () => described(),
        (answers) => answers.length > 0,
        {
          intervalMs: 100,
        },
      );
      await fresh.waitForLoadState('networkidle');
      const descriptions = described();
      expect(descriptions.map((answer) => answer.status)).toEqual(descriptions.map(() => 304));
    } finally {
      await context.close();
    }
  });

  it('an auditor sees its history with both people, verifies the log and checks a saved checkpoint', async () => {
    await signIn(page, people.auditor, 'Otto Auditor');
    await page.goto(`${CONSOLE}/m/hrm/leave`);
    await settled(page, 'Leave');
    await page.getByRole('row').nth(1).getByRole('link').first().click();
    await settled(page, /^Leave \d+ · Grace Hopper$/);
    await page.locator('[data-field="status"]').getByText('Approved').waitFor();
    await page.getByText('ChangeApproved', { exact: true }).waitFor();
    await page
      .getByText(/Proposed by Wendy Writer \(key:[\w-]+\), approved by Alice Approver \(key:[\w-]+\)/)
      .waitFor();
    const changes = page.getByRole('table', { name: /^Changes at position/ }).last();
    await changes
      .getByRole('row')
      .filter({ hasText: 'Status' })
      .getByText('Approved', { exact: true })
      .waitFor();
    await expectAccessible(page);

    // The market serves its records to its readers only; the audit API serves their history.
    await page.goto(`${CONSOLE}/m/market/competitors/1`);
    await settled(page, /^Competitor 1$/);
    await page.getByText("Only this record's history is shown").waitFor();
    await page.getByText('CompetitorVerified', { exact: true }).first().waitFor();
    await expect(page.getByText('The request failed').count()).resolves.toBe(0);
    await expectAccessible(page);

    const navigation = page.getByRole('navigation', { name: 'Console' });
    await navigation.getByRole('link', { name: 'Verify and checkpoints' }).click();
    await settled(page, 'Verify the log');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('verify-result').getByText('The log verifies').waitFor();
    await page
      .getByTestId('verify-result')
      .getByText(/Digest up to position \d+: [0-9a-f]{64}/)
      .waitFor();
    await expectAccessible(page);

    const older = page.getByLabel('Older checkpoint');
    const [origin, size, , ...signatures] = saved.split('\n');
    const forged = [origin, size, Buffer.alloc(32, 7).toString('base64'), ...signatures].join('\n');
    await older.fill(forged);
    await page.getByRole('button', { name: 'Check that the log extends it' }).click();
    await page.getByText('The log does not extend this checkpoint: the consistency proof fails').waitFor();
    await older.fill(saved);
    await page.getByRole('button', { name: 'Check that the log extends it' }).click();
    await page
      .getByText(new RegExp(`The log extends the checkpoint of ${treeSize(saved)} events \\(now \\d+\\)`))
      .waitFor();
    const latest = await checkpointOf(people.auditor);
    expect(treeSize(latest)).toBeGreaterThan(treeSize(saved));

    await navigation.getByRole('link', { name: 'Event log' }).click();
    await settled(page, 'Event log');
    await page.getByLabel('Type').fill('LeaveApplicationApproved');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('cell', { name: 'LeaveApplicationApproved' }).waitFor();
    // The filter is in the address: the view comes back on reload.
    expect(new URL(page.url()).searchParams.get('type')).toBe('LeaveApplicationApproved');
    await page.reload();
    await settled(page, 'Event log');
    await expect(page.getByLabel('Type').inputValue()).resolves.toBe('LeaveApplicationApproved');
    await expectAccessible(page);
    // Each event opens in a panel: its data, its proof and its evidence.
    await page
      .getByRole('button', { name: /^Open event \d+$/ })
      .first()
      .click();
    const panel = page.getByRole('dialog', { name: /^Event \d+$/ });
    await panel.getByText('LeaveApplicationApproved').waitFor();
    await panel
      .getByTestId('inclusion-proof')
      .getByText(/^Leaf \d+ of the signed tree of \d+ events/)
      .waitFor();
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download evidence' }).click(),
    ]);
    const bundle = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
    expect(bundle).toMatchObject({
      format: 'suite-inclusion-evidence/1',
      event: { type: 'LeaveApplicationApproved' },
    });
    const { verifierKey } = resolveLogSigner(loadConfig({ SUITE_DATA_DIR: dir }));
    expect(bundleProblem(bundle, verifierKey)).toBeUndefined();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    await page.getByLabel('Live tail').check();
    await page.getByText(/^Live: /).waitFor();
    await navigation.getByRole('link', { name: 'Parked events' }).click();
    await settled(page, 'Parked events');
    await page.getByText('No event is parked').waitFor();
    await expectAccessible(page);
    await navigation.getByRole('link', { name: 'Erasures' }).click();
    await settled(page, 'Erasures');
    await page.getByText('No data subject has been erased.').waitFor();
    await expectAccessible(page);
    await signOut(page);
    await expect(page.evaluate('document.cookie')).resolves.toBe('');
  });

  it('an administrator reads the market with the signed-in credential, and erases a data subject once asked again', async () => {
    await signIn(page, ADMIN_TOKEN, 'token:admin');
    const navigation = page.getByRole('navigation', { name: 'Console' });
    await navigation.getByRole('link', { name: 'Market', exact: true }).click();
    await settled(page, 'Market price intelligence');
    // The description's Markdown code spans, as code.
    await page.locator('code', { hasText: 'svc_session' }).waitFor();
    await navigation.getByRole('link', { name: 'Competitors', exact: true }).click();
    await settled(page, 'Competitors');
    await page.getByTestId('total').getByText('3 records').waitFor();
    await page.getByRole('cell', { name: 'Alpha Dental' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Search').fill('beta');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByTestId('total').getByText('1 record').waitFor();
    await page.getByRole('row').filter({ hasText: 'Beta Smile' }).getByRole('link', { name: '2' }).click();
    await settled(page, /^Competitor 2 · Beta Smile$/);
    await page
      .getByRole('table', { name: 'Locations' })
      .getByRole('cell', { name: 'Clinic Munich' })
      .waitFor();
    await expectAccessible(page);

    await navigation.getByRole('link', { name: 'Erasures' }).click();
    await settled(page, 'Erasures');
    const subject = page.getByRole('textbox', { name: 'Subject' });
    await subject.fill('Ada Lovelace');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Art. 17 request');
    await page.getByRole('button', { name: 'Erase…' }).click();
    await page.getByRole('dialog', { name: 'Erase Ada Lovelace for good?' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Erase for good' }).click();
    // The audit API's refusal, at its field.
    await page.getByText('The erasure was refused (422 validation_error)').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect(subject.getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByText('Input should be a data subject, the stream of a person').first().waitFor();
    await expectAccessible(page);

    // A typo erases nothing: refused, with the subject meant among the nearest.
    await subject.fill(`hrm.employe-${people.manager}`);
    await page.getByRole('button', { name: 'Erase…' }).click();
    await page.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByText('The erasure was refused (404 unknown_subject)').waitFor();
    await page.getByText(`Did you mean hrm.employee-${people.manager}`).waitFor();
    await expect(subject.getAttribute('aria-invalid')).resolves.toBe('true');

    await subject.fill(`hrm.employee-${people.manager}`);
    await page.getByRole('button', { name: 'Erase…' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Erase…' }).click();
    await page.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByRole('status').getByText(`hrm.employee-${people.manager}`).waitFor();
    await page.goto(`${CONSOLE}/m/hrm/employees/${people.manager}`);
    // Titled without the name it no longer has.
    await settled(page, new RegExp(`^Employee ${people.manager}$`));
    await page.locator('[data-field="first_name"]').getByText('erased').waitFor();

    // From the person's own record, named in the confirmation.
    await page.goto(`${CONSOLE}/m/hrm/employees/${people.employee}`);
    await settled(page, new RegExp(`^Employee ${people.employee} · Grace Hopper$`));
    await page.getByRole('button', { name: 'Erase personal data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase the personal data of Grace Hopper for good?' });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Art. 17 request');
    await dialog.getByRole('button', { name: 'Erase for good' }).click();
    await page.getByRole('status').getByText(`hrm.employee-${people.employee}`).waitFor();
    await page.locator('[data-field="last_name"]').getByText('erased').waitFor();
    await signOut(page);
    // The credential never was a cookie, on any port.
    await expect(page.context().cookies()).resolves.toEqual([]);
  });

  it('every page of the navigation and a record of each table that has one are accessible, at desktop and phone sizes', async () => {
    await signIn(page, ADMIN_TOKEN, 'token:admin');
    const navigation = page.getByRole('navigation', { name: 'Console' });
    const hrefs = (links: ReturnType<Page['locator']>) =>
      links.evaluateAll((found) => found.map((link) => link.getAttribute('href') as string));
    const follow = async (link: ReturnType<Page['locator']>) => {
      const path = (await link.getAttribute('href')) as string;
      await link.click();
      await arrived(page, path);
      await expectAccessible(page);
    };
    const modules = await hrefs(navigation.locator('a[href^="/m/"]'));
    expect(modules).toHaveLength(10);
    for (const module of modules) {
      await follow(navigation.locator(`a[href="${module}"]`));
      const tables = navigation.locator(`a[href^="${module}/"]`);
      await tables.first().waitFor();
      for (const table of await hrefs(tables)) {
        await follow(navigation.locator(`a[href="${table}"]`));
        // The first record the table lists, if it lists one: its page.
        const record = page.getByRole('table').first().getByRole('row').nth(1).locator('a[href^="/m/"]');
        if ((await record.count()) > 0) await follow(record.first());
      }
    }
    await follow(navigation.getByRole('link', { name: /^Approvals/ }));
    await follow(navigation.getByRole('link', { name: 'Overview' }));
    await signOut(page);
  });

  it('signs in while the service desk is down, and drops a revoked key on its next request', async () => {
    const serviceDesk = `http://127.0.0.1:${PORT}/**`;
    await page.route(serviceDesk, (route) => route.abort());
    try {
      await signIn(page, people.revocable.token, 'Rita Revocable');
    } finally {
      await page.unroute(serviceDesk);
    }
    const navigation = page.getByRole('navigation', { name: 'Console' });
    await navigation.getByRole('link', { name: /^Approvals/ }).click();
    await settled(page, 'Approvals');

    revoke(dir, people.revocable.id);
    await refused(people.revocable.token);
    await navigation.getByRole('link', { name: 'HR', exact: true }).click();
    await navigation.getByRole('link', { name: /^Approvals/ }).click();
    // No reload: the refusal of the page's own request signs the key out.
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect(page.evaluate('sessionStorage.length')).resolves.toBe(0);
  });
});

/** `suite keys revoke`, as an operator runs it beside the running suite. */
function revoke(dir: string, id: string): void {
  const run = spawnSync(process.execPath, [SUITE_CLI, 'keys', 'revoke', id, '--data-dir', dir], {
    env: { ...process.env, SUITE_SESSION_SECRET: SESSION_SECRET, SUITE_LOG_LEVEL: 'error' },
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
}

/** Resolves once the suite refuses the token (a revocation takes effect within a second). */
async function refused(token: string): Promise<void> {
  await eventually(
    'the token to be refused',
    () => fetch(`http://127.0.0.1:${PORT + 2}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } }),
    (answer) => answer.status === 401,
    { intervalMs: 200 },
  );
}

/** What a browser loads before the first page shows: the entry script and what index.html preloads. */
const FIRST_LOAD_BUDGET_BYTES = 250 * 1024;

/** The bytes of a file as the console's port sends it to a browser (`Accept-Encoding` as Chromium's). */
function transferred(port: number, file: string): Promise<{ bytes: number; encoding: unknown }> {
  return new Promise((resolve, reject) => {
    const headers = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };
    get({ host: '127.0.0.1', port, path: `/${file}`, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] }));
    }).on('error', reject);
  });
}

test('the console sends at most 250 kB of JavaScript, compressed, before its first page', async () => {
  const index = readFileSync(path.join(CONSOLE_ROOT, 'index.html'), 'utf8');
  const scripts = [...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
    (match) => match[1] as string,
  );
  expect(scripts.length).toBeGreaterThan(0);
  const logger = pino({ level: 'silent' });
  const app = served(createConsoleApp({ modules: [], ports: DEFAULT_PORTS, auditPort: 8091 }, logger), {
    readiness: servingFiles,
    observer: loggingObserver(logger),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answers = await Promise.all(scripts.map((script) => transferred(port, script)));
    expect(answers.map((answer) => answer.encoding)).toEqual(scripts.map(() => 'br'));
    const total = answers.reduce((sum, answer) => sum + answer.bytes, 0);
    expect(total).toBeLessThan(FIRST_LOAD_BUDGET_BYTES);
  } finally {
    server.close();
  }
});
