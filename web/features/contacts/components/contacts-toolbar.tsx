import { Plus } from 'lucide-react';
import { ActionButton } from '../../auth/components/action-button';

/** Actions above the contacts list. */
export function ContactsToolbar({ onNew }: { onNew: () => void }) {
  return (
    <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex">
      <ActionButton icon={<Plus aria-hidden />} onClick={onNew}>
        Novo Contato
      </ActionButton>
    </div>
  );
}
