import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, requestJson } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorNotice } from '../../components/ErrorNotice';
import { DANGER } from '../../theme';

export interface Erasure {
  id: number;
  subject: string;
  reason: string;
  erased_at: string;
  erased_by: string;
}

const MAX_REASON = 500;

/**
 * Erasure of a data subject (`POST /api/v1/erasures` on the audit API), for administrators. It cannot
 * be undone, so the form asks once more before it sends; the API's refusals are shown at the fields.
 */
export function EraseSubjectForm() {
  const { auditUrl, token } = useSession();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<{ subject: string; reason: string }>();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [erased, setErased] = useState<Erasure>();
  const form = useForm({
    initialValues: { subject: '', reason: '' },
    validate: {
      subject: (value) => (value.trim() === '' ? 'Name the data subject' : null),
      reason: (value) => (value.trim() === '' ? 'Say why, for the record' : null),
    },
  });

  const erase = async () => {
    if (!confirming) return;
    setPending(true);
    setFailure(undefined);
    try {
      const erasure = await requestJson<Erasure>(`${auditUrl}/api/v1/erasures`, {
        method: 'POST',
        token,
        body: confirming,
      });
      setErased(erasure);
      form.reset();
      // Every read model that held the subject's personal data now shows it erased.
      await queryClient.invalidateQueries();
    } catch (error) {
      setFailure(error);
      for (const issue of error instanceof ApiError ? error.issues : []) {
        const [where, field] = issue.loc;
        if (where === 'body' && (field === 'subject' || field === 'reason'))
          form.setFieldError(field, issue.msg);
      }
    } finally {
      setPending(false);
      setConfirming(undefined);
    }
  };

  return (
    <Paper withBorder p="lg" maw={640}>
      <form
        noValidate
        aria-label="Erase a data subject"
        onSubmit={form.onSubmit((values) => {
          setErased(undefined);
          setConfirming({ subject: values.subject.trim(), reason: values.reason.trim() });
        })}
      >
        <Stack>
          <Title order={2} size="h3">
            Erase a data subject
          </Title>
          <Text size="sm" c="dimmed">
            A person&apos;s right to erasure (GDPR Art. 17): their key is deleted, so their personal data
            reads as erased everywhere, for good. The log and its proofs still verify.
          </Text>
          <TextInput
            label="Subject"
            description="The person's own record, as module.entity-id: hrm.employee-42, hrm.candidate-7, crm.contact-3, lms.learner-9, cms.submission-12, mail.contact-5"
            placeholder="hrm.employee-42"
            required
            {...form.getInputProps('subject')}
          />
          <Textarea
            label="Reason"
            description="Why, for the record; no personal data"
            placeholder="Art. 17 request"
            required
            autosize
            minRows={2}
            maxLength={MAX_REASON}
            {...form.getInputProps('reason')}
          />
          {failure !== undefined && <ErrorNotice error={failure} title="The erasure was refused" />}
          {erased && (
            <Alert color="green" title="Erased" role="status">
              <Code>{erased.subject}</Code> is erased (erasure {erased.id}, by {erased.erased_by}).
            </Alert>
          )}
          <Group>
            <Button type="submit" color={DANGER}>
              Erase…
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        title={`Erase ${confirming?.subject ?? ''} for good?`}
        centered
      >
        <Stack>
          <Text size="sm">
            The subject&apos;s key is deleted now. Every module and the audit API will show their personal
            fields as erased, and nothing can bring them back.
          </Text>
          <Text size="sm">
            Reason recorded: <Code>{confirming?.reason}</Code>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(undefined)} data-autofocus>
              Cancel
            </Button>
            <Button color={DANGER} loading={pending} onClick={() => void erase()}>
              Erase for good
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
