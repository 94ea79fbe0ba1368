/** A field's validation message, tied to its input by `id` (the input's aria-describedby); nothing while the field is valid. */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm font-medium text-red-700">
      {message}
    </p>
  );
}
