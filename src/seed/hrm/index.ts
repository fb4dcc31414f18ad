import type { SeedContext } from '../context';
import { attendanceSteps, leaveSteps, type Attendee } from './time-off';
import { employeeChanges, seedEmployees } from './people';
import { SEED_END, type Step } from './plan';
import { recruitmentSteps, seedTeams } from './recruitment';
import { seedStructure, structureChanges } from './structure';

/**
 * The HR and recruitment demo data: the organisation structure and ~200 employees as the HR system
 * goes live on 2026-05-04, then a season to 2026-11-20 of leave, attendance (last two working weeks)
 * and recruitment. Every step is a command at its own time, executed in time order, through the same
 * handlers as the API's writes.
 */
export async function seedHrm(seed: SeedContext): Promise<void> {
  const structure = await seedStructure(seed);
  const people = await seedEmployees(seed, structure);
  const { teams, steps: teamSteps, headOfTalent } = await seedTeams(seed, structure, people);
  const peopleHead = people.find((person) => person.department.key === 'ppl' && person.kind === 'head');
  if (!peopleHead) throw new Error('The HR demo data has no head of People');

  const steps: Step[] = [
    ...structureChanges(seed, structure),
    ...teamSteps,
    ...employeeChanges(seed, people),
  ];
  const leave = leaveSteps(seed, people, peopleHead.id);
  steps.push(...leave.steps);
  const recruitment = recruitmentSteps(seed, structure, people, teams, headOfTalent);
  steps.push(...recruitment.steps);
  const attendees: Attendee[] = people
    .filter((person) => person.stable)
    .map((person) => ({
      employeeId: () => person.id,
      department: person.department,
      organization: person.organization,
      from: person.date_of_joining,
      leave: leave.planned.get(person.id) ?? [],
    }));
  steps.push(...attendanceSteps(seed, [...attendees, ...recruitment.hires]));

  steps.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) {
    if (step.at > SEED_END) continue;
    seed.at(step.at);
    await step.run();
  }
}
