import { Pencil, Trash2 } from 'lucide-react';
import { PermissionGatedButton } from './permission-gated-button';

/** A list row's icon-only 'Editar' and 'Excluir' buttons, named after the row (`Editar Maria`). */
export function EditDeleteButtons({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const actions = [
    { label: 'Editar', icon: <Pencil aria-hidden />, onClick: onEdit, className: undefined },
    { label: 'Excluir', icon: <Trash2 aria-hidden />, onClick: onDelete, className: 'text-red-700 hover:bg-red-50' },
  ];
  return actions.map(({ label, icon, onClick, className }) => (
    <PermissionGatedButton
      key={label}
      variant="ghost"
      size="icon"
      className={className}
      aria-label={`${label} ${name}`}
      labelClassName="sr-only"
      icon={icon}
      onClick={onClick}
    >
      {label}
    </PermissionGatedButton>
  ));
}
