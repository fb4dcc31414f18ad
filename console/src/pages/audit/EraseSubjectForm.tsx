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
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { MAX_REASON, nearestSubjects, useErase, type Erasure } from '../../api/erasures';
import { EraseConfirmButtons } from '../../components/EraseConfirmButtons';
import { ErrorNotice } from '../../components/ErrorNotice';
import { DANGER } from '../../theme';

/**
 * Erasure of a data subject (`POST /api/v1/erasures` on the audit API), for administrators, as an
 * auditor's request names it (a record's page offers it too). It cannot be undone, so the form asks
 * once more before it sends; the API's refusals are shown at the fields, a subject the suite holds no
 * record of with the nearest known ones.
 */
export function EraseSubjectForm() {
  const erase = useErase();
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

  const confirm = async () => {
    if (!confirming) return;
    setPending(true);
    setFailure(undefined);
    try {
      setErased(await erase(confirming));
      form.reset();
    } catch (error) {
      setFailure(error);
      for (const issue of error instanceof ApiError ? error.issues : []) {
        const [where, field] = issue.loc;
        if (where === 'body' && (field === 'subject' || field === 'reason'))
          form.setFieldError(field, issue.msg);
      }
      if (error instanceof ApiError && error.code === 'unknown_subject') {
        const nearest = nearestSubjects(error);
        form.setFieldError(
          'subject',
          nearest.length > 0
            ? `The suite holds no data of this subject. Did you mean ${nearest.join(', ')}?`
            : 'The suite holds no data of this subject',
        );
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
          <EraseConfirmButtons
            pending={pending}
            onCancel={() => setConfirming(undefined)}
            onConfirm={() => void confirm()}
          />
        </Stack>
      </Modal>
    </Paper>
  );
}
