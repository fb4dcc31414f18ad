import { Center, Loader } from '@mantine/core';

/** A spinner, announced by its label: a status, since a bare span may not carry a label. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl">
      <Loader role="status" aria-label={label} />
    </Center>
  );
}
