import { projectDecider, type AddProject } from '../../src/commands/ppm/projects';
import { riskDecider, riskScore, type IdentifyRisk } from '../../src/commands/ppm/risks';
import type { PpmEventOf } from '../../src/events/ppm';
import { deciderSpec } from '../support/decider-spec';

const project = (overrides: Partial<AddProject['project']> = {}): AddProject['project'] => ({
  id: 4,
  code: 'WS-0004',
  name: 'Payroll Consolidation: Data Migration',
  type: 'Workstream',
  parent_id: 2,
  status: 'Active',
  health: 'Amber',
  priority: 'High',
  description: 'Data Migration workstream.',
  owner: 'Eva Novak',
  sponsor: null,
  start_date: '2026-03-01',
  end_date: '2026-12-31',
  budget: 250_000,
  currency: 'EUR',
  ...overrides,
});

describe('the project hierarchy', () => {
  const given = deciderSpec(projectDecider);
  const add = (overrides: Partial<AddProject['project']>, parent: AddProject['parent']): AddProject => ({
    type: 'AddProject',
    project: project(overrides),
    parent,
  });

  it('adds a workstream to a project', () => {
    given([])
      .when(add({}, { type: 'Project' }))
      .then([{ type: 'ProjectAdded', data: project() }]);
  });

  it('refuses a workstream under a programme, or without a parent', () => {
    given([])
      .when(add({}, { type: 'Programme' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^parent_id/) });
    given([])
      .when(add({ parent_id: null }, null))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^parent_id/) });
  });

  it('refuses a parent that does not exist and a programme with a parent', () => {
    given([]).when(add({}, undefined)).thenThrows({ code: 'validation_error' });
    given([])
      .when(add({ type: 'Programme' }, { type: 'Programme' }))
      .thenThrows({ code: 'validation_error' });
  });

  it('refuses an end date before the start date', () => {
    given([])
      .when(add({ end_date: '2026-01-01' }, { type: 'Project' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^end_date/) });
  });

  it('moves a project along its status table and refuses to leave Completed', () => {
    const added: PpmEventOf<'ProjectAdded'> = { type: 'ProjectAdded', data: project() };
    const at = '2026-11-21T09:30:00Z';
    given([added])
      .when({ type: 'ChangeProjectStatus', status: 'On Hold', at })
      .then([{ type: 'ProjectStatusChanged', data: { from: 'Active', to: 'On Hold', changed_on: at } }]);
    given([{ type: 'ProjectAdded', data: project({ status: 'Completed' }) }])
      .when({ type: 'ChangeProjectStatus', status: 'Active', at })
      .thenThrows({ code: 'illegal_transition' });
  });
});

describe('risks', () => {
  const given = deciderSpec(riskDecider);
  const risk = (overrides: Partial<IdentifyRisk['risk']> = {}): IdentifyRisk['risk'] => ({
    id: 1,
    ref: 'RSK-0001',
    project_id: 2,
    title: 'Key experts unavailable',
    description: 'Year-end close.',
    category: 'Resource',
    probability: 4,
    impact: 3,
    status: 'Open',
    mitigation: 'Front-load workshops.',
    owner: 'Eva Novak',
    identified_on: '2026-10-01',
    review_date: '2026-12-01',
    ...overrides,
  });

  it.each([
    [1, 4, 4, 'Low'],
    [1, 5, 5, 'Medium'],
    [3, 3, 9, 'Medium'],
    [2, 5, 10, 'High'],
    [3, 5, 15, 'High'],
    [4, 4, 16, 'Critical'],
    [5, 5, 25, 'Critical'],
  ])('scores probability %i x impact %i as %i (%s)', (probability, impact, score, rating) => {
    expect(riskScore(probability, impact)).toEqual({ score, rating });
  });

  it('identifies a risk with its score and rating', () => {
    given([])
      .when({ type: 'IdentifyRisk', risk: risk(), projectExists: true })
      .then([{ type: 'RiskIdentified', data: { ...risk(), score: 12, rating: 'High' } }]);
  });

  it('requires a mitigation for an open risk but not for an accepted one', () => {
    given([])
      .when({ type: 'IdentifyRisk', risk: risk({ mitigation: null }), projectExists: true })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^mitigation/) });
    given([])
      .when({
        type: 'IdentifyRisk',
        risk: risk({ mitigation: null, status: 'Accepted' }),
        projectExists: true,
      })
      .then([
        {
          type: 'RiskIdentified',
          data: { ...risk({ mitigation: null, status: 'Accepted' }), score: 12, rating: 'High' },
        },
      ]);
  });

  it('refuses a risk of a project that does not exist', () => {
    given([])
      .when({ type: 'IdentifyRisk', risk: risk(), projectExists: false })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^project_id/) });
  });
});
