import { Button, Group } from '@mantine/core';
import { DANGER } from '../theme';

/** The last step of an erasure: Cancel (focused first) or Erase for good. */
export function EraseConfirmButtons({
  pending,
  onCancel,
  onConfirm,
}: {
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} data-autofocus>
        Cancel
      </Button>
      <Button color={DANGER} loading={pending} onClick={onConfirm}>
        Erase for good
      </Button>
    </Group>
  );
}
