import { z } from 'zod';
import type { ModuleDefinition } from '../../src/api/kit/module';

/** A job triggered by every `Joined` event, keyed by its stream: what the job-trigger tests queue. */
export const recountJob = {
  name: 'tests.recount',
  payload: z.object({ stream: z.string() }),
  run: async () => undefined,
  trigger: { on: ['Joined'], payload: (event: { stream: string }) => ({ stream: event.stream }) },
};

/** Only what the triggers read of a module: its id and jobs. */
export const recountModule = { id: 'tests', jobs: [recountJob] } as unknown as ModuleDefinition;
