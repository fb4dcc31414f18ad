import { Alert, Button, Code, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { MAX_REASON, useErase, type Erasure } from '../api/erasures';
import { DANGER } from '../theme';
import { EraseConfirmButtons } from './EraseConfirmButtons';
import { ErrorNotice } from './ErrorNotice';

/**
 * **Erase personal data** on the page of a record that is a data subject: asks for the reason and
 * once more, naming the person, before it erases them (for administrators).
 */
export function EraseRecordButton({ subject, name }: { subject: string; name: string | undefined }) {
  const erase = useErase();
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [missingReason, setMissingReason] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [erased, setErased] = useState<Erasure>();
  const person = name ?? subject;

  const confirm = async () => {
    if (reason.trim() === '') {
      setMissingReason(true);
      return;
    }
    setPending(true);
    setFailure(undefined);
    try {
      setErased(await erase({ subject, reason: reason.trim() }));
      setOpened(false);
      setReason('');
    } catch (error) {
      setFailure(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button color={DANGER} variant="light" onClick={() => setOpened(true)}>
        Erase personal data
      </Button>
      {erased && (
        <Alert color="green" title="Erased" role="status" mt="sm">
          <Code>{erased.subject}</Code> is erased (erasure {erased.id}, by {erased.erased_by}).
        </Alert>
      )}
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`Erase the personal data of ${person} for good?`}
        centered
      >
        <Stack>
          <Text size="sm">
            The key of <Code>{subject}</Code> is deleted now. Every module and the audit API will show
            {name ? ` ${name}'s` : ' their'} personal fields as erased, and nothing can bring them back.
          </Text>
          <Textarea
            label="Reason"
            description="Why, for the record; no personal data"
            placeholder="Art. 17 request"
            required
            autosize
            minRows={2}
            maxLength={MAX_REASON}
            value={reason}
            error={missingReason && reason.trim() === '' ? 'Say why, for the record' : undefined}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          {failure !== undefined && <ErrorNotice error={failure} title="The erasure was refused" />}
          <EraseConfirmButtons
            pending={pending}
            onCancel={() => setOpened(false)}
            onConfirm={() => void confirm()}
          />
        </Stack>
      </Modal>
    </>
  );
}
