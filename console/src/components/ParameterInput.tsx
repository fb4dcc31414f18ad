import { NativeSelect, TextInput } from '@mantine/core';
import { fieldLabel } from '../api/field-text';
import { inlinePlainText } from '../api/inline-markdown';
import type { Parameter } from '../api/openapi';

/** A list filter as its schema describes it: a choice for an enum or a yes/no, a date, or text. */
export function ParameterInput({
  parameter,
  value,
  onChange,
}: {
  parameter: Parameter;
  value: string;
  onChange(value: string): void;
}) {
  const { schema } = parameter;
  const label = parameter.name === 'q' ? 'Search' : fieldLabel(parameter.name);
  const described = parameter.description ?? schema.description;
  const description = described && inlinePlainText(described);
  const choices = schema.enum ?? (schema.type === 'boolean' ? ['true', 'false'] : undefined);
  if (choices) {
    return (
      <NativeSelect
        label={label}
        title={description}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        data={[
          { value: '', label: 'Any' },
          ...choices.map((choice) => ({ value: String(choice), label: String(choice) })),
        ]}
      />
    );
  }
  return (
    <TextInput
      label={label}
      title={description}
      type={schema.format === 'date' ? 'date' : 'text'}
      inputMode={schema.type === 'integer' || schema.type === 'number' ? 'numeric' : undefined}
      placeholder={parameter.name === 'q' ? 'Find…' : undefined}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
