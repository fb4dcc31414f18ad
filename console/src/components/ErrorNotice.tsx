import { Alert, List } from '@mantine/core';
import { ApiError } from '../api/client';

/** An API's refusal as its envelope tells it: the message, the code and any field problems. */
export function ErrorNotice({ error, title = 'The request failed' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? ` (${error.status} ${error.code})` : '';
  const issues = error instanceof ApiError ? error.issues : [];
  return (
    <Alert color="red" title={`${title}${code}`} role="alert" variant="light">
      {message}
      {issues.length > 1 && (
        <List size="sm" mt="xs">
          {issues.map((issue) => (
            <List.Item key={`${issue.loc.join('.')}:${issue.msg}`}>
              {issue.loc.join('.')}: {issue.msg}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
