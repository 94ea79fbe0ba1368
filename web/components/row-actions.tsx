import { Pencil, Trash2 } from 'lucide-react';
import type { TeamRole } from '#contract/auth';
import { PermissionGatedButton } from './permission-gated-button';

/**
 * A list row's icon-only 'Editar' and 'Excluir' buttons, named after the row (`Editar Maria`), each
 * shown to the team roles its route allows: editing to `editTeam` (managers unless given), deleting
 * to managers.
 */
export function EditDeleteButtons({
  name,
  onEdit,
  onDelete,
  editTeam = 'manager',
}: {
  name: string;
  onEdit: () => void;
  onDelete: () => void;
  editTeam?: TeamRole;
}) {
  const actions = [
    { label: 'Editar', icon: <Pencil aria-hidden />, onClick: onEdit, className: undefined, team: editTeam },
    {
      label: 'Excluir',
      icon: <Trash2 aria-hidden />,
      onClick: onDelete,
      className: 'text-red-700 hover:bg-red-50',
      team: 'manager' as const,
    },
  ];
  return actions.map(({ label, icon, onClick, className, team }) => (
    <PermissionGatedButton
      key={label}
      team={team}
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
