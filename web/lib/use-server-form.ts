import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { toast } from '#web/components/ui/use-toast';
import { errorMessage, isApiError } from './api';
import { toastError } from './toasts';

/**
 * Which of the server's `fieldErrors` (SPEC §8, the 400 envelope) a form shows under its fields: the
 * form's field names when the server names them the same, or `{ serverName: formField }` when it does not.
 * Messages for any other name are left to the toast.
 */
export type ServerFields<T extends FieldValues> = readonly Path<T>[] | Readonly<Partial<Record<string, Path<T>>>>;

/** The server's per-field messages of a failed call, as `[formField, message]` pairs the form knows. */
export function serverFieldErrors<T extends FieldValues>(error: unknown, fields: ServerFields<T>): [Path<T>, string][] {
  if (!isApiError(error) || !error.fieldErrors) return [];
  const found = error.fieldErrors;
  const pairs: [string, Path<T> | undefined][] = isFieldList(fields)
    ? fields.map((name) => [name, name])
    : Object.entries(fields);
  const errors: [Path<T>, string][] = [];
  for (const [serverName, field] of pairs) {
    const message = found[serverName];
    if (field && message) errors.push([field, message]);
  }
  return errors;
}

function isFieldList<T extends FieldValues>(fields: ServerFields<T>): fields is readonly Path<T>[] {
  return Array.isArray(fields);
}

/** Sets the server's per-field messages on the form (type 'server'); true when it set any. */
export function applyServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError'>,
  error: unknown,
  fields: ServerFields<T>,
): boolean {
  const errors = serverFieldErrors(error, fields);
  for (const [field, message] of errors) form.setError(field, { type: 'server', message });
  return errors.length > 0;
}

/** The toast of a failed save: 'Erro' unless the form names its own title; the server's message, else the fallback. */
export interface FailureToast {
  title?: string;
  fallback: string;
}

export type ServerFormProps<Input extends FieldValues, Output> = Omit<
  UseFormProps<Input, unknown, Output>,
  'resolver'
> & {
  serverFields: ServerFields<Input>;
};

/**
 * `useForm` checked by the contract's schema, which also knows what to do with a failed save:
 * `applyServerErrors(error)` puts the server's per-field messages under the fields, and
 * `failed(error, fallback | { title, fallback })` does that and toasts the server's message.
 */
export function useServerForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  { serverFields, ...props }: ServerFormProps<Input, Output>,
) {
  const form = useForm<Input, unknown, Output>({ ...props, resolver: zodResolver(schema) });
  const applyErrors = (error: unknown) => applyServerErrors(form, error, serverFields);
  const failed = (error: unknown, failure: string | FailureToast) => {
    applyErrors(error);
    const { title, fallback } = typeof failure === 'string' ? { title: undefined, fallback: failure } : failure;
    if (title === undefined) toastError(error, fallback);
    else toast({ title, description: errorMessage(error, fallback), variant: 'destructive' });
  };
  return Object.assign(form, { applyServerErrors: applyErrors, failed });
}

/** A `FormField`'s props for one field of a form: its registration and its message under it. */
export function formFieldProps<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'register' | 'getFieldState' | 'formState'>,
  name: Path<T>,
  options?: RegisterOptions<T, Path<T>>,
) {
  return { error: form.getFieldState(name, form.formState).error?.message, ...form.register(name, options) };
}
