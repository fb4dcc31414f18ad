import {
  Checkbox,
  Group,
  JsonInput,
  NativeSelect,
  NumberInput,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from '../api/client';
import { fieldLabel } from '../api/field-text';
import { nonNull, type JsonSchema, type OpenApi } from '../api/openapi';
import { InlineMarkdown } from './InlineMarkdown';

/** How one body field is entered. */
type FieldKind = 'choice' | 'choices' | 'yes-no' | 'number' | 'date' | 'long-text' | 'text' | 'json';

export interface FormField {
  name: string;
  /** The schema's `title` (a service's form names its fields), else the name in words. */
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  schema: JsonSchema;
}

function kindOf(schema: JsonSchema): FieldKind {
  if (schema.enum) return 'choice';
  if (schema.type === 'array' && schema.items?.enum) return 'choices';
  switch (schema.type) {
    case 'boolean':
      return 'yes-no';
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
      if (schema.format === 'date') return 'date';
      return (schema.maxLength ?? 0) > 200 ? 'long-text' : 'text';
    default:
      return 'json';
  }
}

/** The fields of an object schema, in its order. */
export function fieldsOf(api: OpenApi, body: JsonSchema | undefined): FormField[] {
  const required = new Set(body?.required ?? []);
  return Object.entries(body?.properties ?? {}).map(([name, property]) => {
    const { schema, nullable } = nonNull(api, property);
    const withDescription = { ...schema, description: schema.description ?? property.description };
    return {
      name,
      label: schema.title ?? fieldLabel(name),
      kind: kindOf(schema),
      required: required.has(name),
      nullable,
      schema: withDescription,
    };
  });
}

export type FormValues = Record<string, string | number | boolean | string[]>;

const emptyValue = (field: FormField) =>
  field.kind === 'yes-no' ? false : field.kind === 'choices' ? [] : '';

/** A record's value as its field holds it: what a form about the record starts from. */
function valueOf(field: FormField, value: unknown): FormValues[string] {
  if (value === null || value === undefined) return emptyValue(field);
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  if (field.kind === 'choices') return Array.isArray(value) ? value.map(String) : [];
  if (typeof value === 'boolean' || typeof value === 'number') return value;
  return String(value);
}

/** The form's first values: empty, or those of the record it changes. */
export const initialValues = (fields: FormField[], current?: Record<string, unknown>): FormValues =>
  Object.fromEntries(
    fields.map((field) => [field.name, current ? valueOf(field, current[field.name]) : emptyValue(field)]),
  );

/** The fields whose values differ from those the form started with: what a change sends. */
export const changedFields = (fields: FormField[], initial: FormValues, values: FormValues): FormField[] =>
  fields.filter((field) => JSON.stringify(initial[field.name]) !== JSON.stringify(values[field.name]));

/**
 * The checks a form the console cannot leave to the API runs itself (a service's form is stored as
 * given): required fields given, text matching its `pattern` and within its `maxLength`.
 */
export function validationOf(fields: FormField[]) {
  return Object.fromEntries(
    fields.map((field) => [
      field.name,
      (value: FormValues[string]) => {
        const empty = value === '' || (Array.isArray(value) && value.length === 0);
        if (field.required && empty && field.kind !== 'yes-no') return 'Required';
        if (typeof value !== 'string' || value === '') return null;
        const { pattern, maxLength } = field.schema;
        if (pattern && !new RegExp(pattern, 'u').test(value)) return `Should match ${pattern}`;
        if (maxLength !== undefined && value.length > maxLength) return `At most ${maxLength} characters`;
        return null;
      },
    ]),
  );
}

/**
 * The JSON body of the form's values: empty optional fields are left out, numbers and JSON parsed as
 * their schema says; what the API makes of them (422 per field) is shown at the fields.
 */
export function bodyOf(fields: FormField[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'yes-no') {
      if (value === true || field.required) body[field.name] = value === true;
      continue;
    }
    if (field.kind === 'choices') {
      if (Array.isArray(value) && (value.length > 0 || field.required)) body[field.name] = value;
      continue;
    }
    if (value === '' || value === undefined) continue;
    if (field.kind === 'json' && typeof value === 'string') {
      try {
        body[field.name] = JSON.parse(value);
      } catch {
        body[field.name] = value;
      }
    } else if (field.kind === 'number') body[field.name] = Number(value);
    else body[field.name] = value;
  }
  return body;
}

export function SchemaField({ field, form }: { field: FormField; form: UseFormReturnType<FormValues> }) {
  const { schema } = field;
  const common = {
    label: field.label,
    description: schema.description && <InlineMarkdown text={schema.description} />,
    required: field.required,
    ...form.getInputProps(field.name, field.kind === 'yes-no' ? { type: 'checkbox' } : undefined),
  };
  switch (field.kind) {
    case 'choice':
      return (
        <NativeSelect
          {...common}
          data={[
            { value: '', label: field.required ? 'Choose…' : '—' },
            ...(schema.enum ?? []).map((choice) => ({ value: String(choice), label: String(choice) })),
          ]}
        />
      );
    case 'choices':
      return (
        <Checkbox.Group {...common}>
          <Group gap="md" mt={4}>
            {(schema.items?.enum ?? []).map((choice) => (
              <Checkbox key={String(choice)} value={String(choice)} label={String(choice)} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'yes-no':
      return <Checkbox {...common} />;
    case 'number':
      return (
        <NumberInput
          {...common}
          min={schema.minimum}
          max={schema.maximum}
          allowDecimal={schema.type === 'number'}
        />
      );
    case 'date':
      return <TextInput {...common} type="date" />;
    case 'long-text':
      return <Textarea {...common} autosize minRows={3} maxLength={schema.maxLength} />;
    case 'text':
      return <TextInput {...common} maxLength={schema.maxLength} />;
    case 'json':
      return <JsonInput {...common} autosize minRows={3} formatOnBlur validationError="Not valid JSON" />;
  }
}

export function SchemaFields({ fields, form }: { fields: FormField[]; form: UseFormReturnType<FormValues> }) {
  return (
    <Stack>
      {fields.map((field) => (
        <SchemaField key={field.name} field={field} form={form} />
      ))}
    </Stack>
  );
}

/** A refused write's field issues, shown on the form's fields they name. */
export function showFieldErrors(
  error: unknown,
  form: UseFormReturnType<FormValues>,
  values: FormValues,
): void {
  if (!(error instanceof ApiError)) return;
  for (const issue of error.issues) {
    const [where, name] = issue.loc;
    if (where === 'body' && typeof name === 'string' && name in values) form.setFieldError(name, issue.msg);
  }
}
