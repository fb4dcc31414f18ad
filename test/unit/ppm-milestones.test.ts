import { milestoneDecider, type UpdateMilestone } from '../../src/commands/ppm/milestones';
import type { MilestoneStatus, PpmEventOf } from '../../src/events/ppm';
import { deciderSpec } from '../support/decider-spec';

const given = deciderSpec(milestoneDecider);
const at = '2026-11-21T09:30:00Z';

const added = (
  overrides: Partial<PpmEventOf<'MilestoneAdded'>['data']> = {},
): PpmEventOf<'MilestoneAdded'> => ({
  type: 'MilestoneAdded',
  data: {
    id: 7,
    project_id: 3,
    name: 'User acceptance sign-off',
    description: null,
    owner: 'Anna Schmidt',
    due_date: '2026-12-15',
    depends_on: [5],
    status: 'In Progress',
    progress: 40,
    completed_on: null,
    ...overrides,
  },
});

const update = (
  change: Partial<UpdateMilestone>,
  dependency: MilestoneStatus = 'Completed',
): UpdateMilestone => ({
  type: 'UpdateMilestone',
  at,
  dependencies: new Map([[5, dependency]]),
  ...change,
});

const progressed = (progress: number) => ({
  type: 'MilestoneProgressReported' as const,
  data: { progress, reported_on: at },
});
const moved = (from: MilestoneStatus, to: MilestoneStatus) => ({
  type: 'MilestoneStatusChanged' as const,
  data: { from, to, changed_on: at },
});

describe('adding a milestone', () => {
  const add = (overrides: Partial<PpmEventOf<'MilestoneAdded'>['data']>, dependencies = new Map()) => ({
    type: 'AddMilestone' as const,
    milestone: added(overrides).data,
    projectExists: true,
    dependencies,
  });

  it('adds a milestone whose project and dependencies exist', () => {
    given([])
      .when(add({}, new Map([[5, 'In Progress']])))
      .then([added()]);
  });

  it('refuses a dependency that does not exist, naming depends_on', () => {
    given([])
      .when(add({}))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^depends_on/) });
  });

  it('refuses a project that does not exist', () => {
    given([])
      .when({ ...add({}, new Map([[5, 'Completed']])), projectExists: false })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^project_id/) });
  });

  it('refuses a completed milestone without progress 100 and completed_on', () => {
    given([])
      .when(add({ status: 'Completed', progress: 90 }, new Map([[5, 'Completed']])))
      .thenThrows({ code: 'validation_error' });
  });
});

describe('updating a milestone', () => {
  it('records progress, and the first progress above 0 starts a milestone', () => {
    given([added()])
      .when(update({ progress: 60 }))
      .then([progressed(60)]);
    given([added({ status: 'Not Started', progress: 0 })])
      .when(update({ progress: 10 }))
      .then([progressed(10), moved('Not Started', 'In Progress')]);
  });

  it('completes a milestone at progress 100 once its dependencies are done', () => {
    given([added()])
      .when(update({ progress: 100 }))
      .then([progressed(100), moved('In Progress', 'Completed')]);
    given([added()])
      .when(update({ status: 'Completed' }, 'Cancelled'))
      .then([progressed(100), moved('In Progress', 'Completed')]);
  });

  it('refuses to complete a milestone before the milestones it depends on (409)', () => {
    given([added()])
      .when(update({ progress: 100 }, 'In Progress'))
      .thenThrows({ code: 'illegal_transition', details: expect.objectContaining({ blocked_by: [5] }) });
  });

  it('flags a milestone at risk and keeps its progress', () => {
    given([added()])
      .when(update({ status: 'At Risk' }))
      .then([moved('In Progress', 'At Risk')]);
    given([added({ status: 'At Risk' })])
      .when(update({ progress: 70 }))
      .then([progressed(70)]);
  });

  it('reopens a completed milestone when its progress falls below 100', () => {
    const completed = added({ status: 'Completed', progress: 100, completed_on: '2026-11-01' });
    given([completed])
      .when(update({ progress: 80 }))
      .then([progressed(80), moved('Completed', 'In Progress')]);
    given([completed])
      .when(update({ status: 'In Progress' }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^progress/) });
  });

  it('refuses progress that contradicts the status (422)', () => {
    given([added()])
      .when(update({ status: 'Completed', progress: 90 }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^progress/) });
    given([added()])
      .when(update({ status: 'At Risk', progress: 100 }))
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^progress/) });
  });

  it.each([
    ['In Progress', 'Not Started'],
    ['Cancelled', 'In Progress'],
    ['Completed', 'Cancelled'],
  ] as const)('refuses the move %s -> %s with illegal_transition', (from, to) => {
    const progress = from === 'Completed' ? 100 : 40;
    const completed_on = from === 'Completed' ? '2026-11-01' : null;
    given([added({ status: from, progress, completed_on })])
      .when(update({ status: to }))
      .thenThrows({ code: 'illegal_transition', details: expect.objectContaining({ from, to }) });
  });

  it('refuses progress on a cancelled milestone', () => {
    given([added({ status: 'Cancelled' })])
      .when(update({ progress: 50 }))
      .thenThrows({ code: 'illegal_transition' });
  });

  it('decides nothing for an update that changes nothing', () => {
    given([added()])
      .when(update({ progress: 40, status: 'In Progress' }))
      .then([]);
  });

  it('answers not_found for a milestone that does not exist', () => {
    given([])
      .when(update({ progress: 10 }))
      .thenThrows({ code: 'not_found' });
  });
});
