import type { WorkspaceSeed } from './clm-data';
import { VERSION_NOTES } from './clm-data';
import { thousands } from './toolkit';

interface ContractText {
  workspace: WorkspaceSeed;
  party: { seed: { legal_name: string; city: string }; registration_number: string };
  contract: {
    reference: string;
    title: string;
    type: string;
    value: number | null;
    currency: string;
    start_date: string;
    end_date: string | null;
    auto_renewal: boolean;
    notice_period_days: number;
    governing_law: string;
  };
  clauses: readonly string[];
  version: number;
}

/** The text of one version of a demo contract, and the note that says what changed in it. */
export function renderContract({ workspace, party, contract, clauses, version }: ContractText) {
  const note =
    version === 1
      ? `Initial draft from the ${contract.type} template`
      : (VERSION_NOTES[(version - 2) % VERSION_NOTES.length] as string);
  const value =
    contract.value === null
      ? 'No fixed contract value.'
      : `Total contract value: ${contract.currency} ${thousands(contract.value)}.`;
  const term = contract.end_date
    ? `from ${contract.start_date} to ${contract.end_date}${contract.auto_renewal ? ', renewing for the same term unless terminated' : ''}`
    : `from ${contract.start_date} until terminated`;
  const content = [
    contract.type.toUpperCase(),
    `${contract.reference}: ${contract.title}`,
    `Version ${version}: ${note}`,
    '',
    `Between ${workspace.legal_name} ("${workspace.name}")`,
    `and ${party.seed.legal_name}, ${party.seed.city}, registered under ${party.registration_number} ("the Counterparty").`,
    '',
    ...clauses.map(
      (clause, index) =>
        `${index + 1}. ${clause}.${index + 1 === version ? ` (Revised in version ${version}.)` : ''}`,
    ),
    '',
    value,
    `Term: ${term}. Notice period: ${contract.notice_period_days} days.`,
    `Governing law: the laws of ${contract.governing_law}.`,
  ].join('\n');
  return { note, content };
}
