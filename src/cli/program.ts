import { Command } from 'commander';
import { addAuditCommands } from './audit';
import { addFpaCommands } from './fpa';
import { addKeyCommands } from './keys';
import { addEventsCommand } from './log';
import { addMarketCommands } from './market';
import { addPolicyCommands } from './policy';
import { addErasureCommand } from './privacy';
import { addProjectionCommands, addRebuildCommand } from './projections';
import { addReplayCommand } from './replay';
import { addSeedCommand } from './seed';
import { addServingCommands } from './serve';
import { addWebhookCommands } from './webhooks';
import { addWitnessCommands } from './witness';

/** `suite` and its commands, in the order its help lists them. */
export function suiteProgram(): Command {
  const program = new Command('suite')
    .description('The suite: event-sourced enterprise modules')
    .version('1.0.0');
  addServingCommands(program);
  addSeedCommand(program);
  addRebuildCommand(program);
  addEventsCommand(program);
  addAuditCommands(program);
  addReplayCommand(program);
  addFpaCommands(program);
  addMarketCommands(program);
  addProjectionCommands(program);
  addKeyCommands(program);
  addPolicyCommands(program);
  addWebhookCommands(program);
  addErasureCommand(program);
  addWitnessCommands(program);
  return program;
}
