import { Alert, Code } from '@mantine/core';
import { ApiError } from '../api/client';

/** The role a refusal names as the one missing (`This needs the role market:reader`), if it is one. */
export function missingRole(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 403) return undefined;
  const role = error.details.required_role;
  return typeof role === 'string' ? role : undefined;
}

/**
 * Why an auditor sees a record's history but not the record: its current fields are the module's to
 * serve, to its readers, while the audit API serves every record's history to auditors.
 */
export function HistoryOnlyNotice({ module, role }: { module: string; role: string }) {
  return (
    <Alert color="blue" variant="light" title="Only this record's history is shown" mb="xl">
      {module} shows its current fields to those who hold the role <Code>{role}</Code>, which you do not hold.
      Its history, which the audit API keeps for auditors, is below.
    </Alert>
  );
}
