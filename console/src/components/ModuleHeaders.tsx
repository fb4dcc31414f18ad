import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { moduleHeaders, saveModuleHeaders } from '../api/modules';
import type { Parameter } from '../api/openapi';
import { InlineMarkdown } from './InlineMarkdown';

/**
 * The headers a module's data endpoints take besides the credential (the contract module's workspace
 * and member), kept for this tab and sent with each of its requests.
 */
export function ModuleHeaders({ module, headers }: { module: string; headers: Parameter[] }) {
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { ...Object.fromEntries(headers.map((h) => [h.name, ''])), ...moduleHeaders(module) },
  });
  if (headers.length === 0) return null;
  return (
    <Paper withBorder p="md" mb="lg">
      <form
        onSubmit={form.onSubmit((values) => {
          saveModuleHeaders(module, values);
          void queryClient.invalidateQueries({ queryKey: ['module', module] });
        })}
      >
        <Text fw={600} size="sm" mb="xs">
          This module needs to know where you work
        </Text>
        <Group align="flex-end">
          {headers.map((header) => {
            const description = header.description ?? header.schema.description;
            return (
              <TextInput
                key={header.name}
                label={header.name}
                description={description && <InlineMarkdown text={description} />}
                {...form.getInputProps(header.name)}
              />
            );
          })}
          <Button type="submit" variant="default">
            Use these
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
