import { Lock } from 'lucide-react';
import { EmptyState } from './states';

/** Shown instead of workspace data to pending or deactivated accounts (the API answers 403 for them);
 * the account notice at the top of the shell carries the 'Solicitar Aprovação' button. */
export function LockedState({ className }: { className?: string }) {
  return (
    <EmptyState
      className={className}
      icon={Lock}
      title="Disponível após a liberação da conta"
      description="Use o botão Solicitar Aprovação no topo da página para falar com a nossa equipe."
    />
  );
}
