import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useSession } from '../api/session';

/** Sign in with an API key (`suite keys create`), an identity provider's token, or the suite's token. */
export function SignInPage() {
  const { principal, signIn } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';
  const [pending, setPending] = useState(false);
  const form = useForm({
    initialValues: { token: '' },
    validate: { token: (value) => (value.trim() === '' ? 'Paste an API key or a bearer token' : null) },
  });
  if (principal) return <Navigate to={from} replace />;

  const submit = form.onSubmit(async ({ token }) => {
    setPending(true);
    try {
      await signIn(token.trim());
      navigate(from, { replace: true });
    } catch (error) {
      const refused = error instanceof ApiError && error.status === 401;
      form.setFieldError(
        'token',
        refused ? 'The suite does not know this credential (revoked or expired?)' : (error as Error).message,
      );
    } finally {
      setPending(false);
    }
  });

  return (
    <Center mih="100vh" bg="gray.0" component="main">
      <Paper withBorder shadow="sm" p="xl" w={420} maw="92vw">
        <form onSubmit={submit} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h2">
                Suite console
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Back office and audit for the suite&apos;s modules.
              </Text>
            </div>
            <PasswordInput
              label="API key"
              description="An API key, an identity provider's token, or the suite's API token"
              autoComplete="off"
              autoFocus
              {...form.getInputProps('token')}
            />
            <Button type="submit" loading={pending}>
              Sign in
            </Button>
            <Text size="xs" c="dimmed">
              The key stays in this tab only, and is forgotten when you sign out or close it.
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
