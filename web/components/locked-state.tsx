import { Lock } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from './states';
import { Card } from './ui/card';

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

/** `LockedState` in a card, where a page's data would be. */
export function LockedCard() {
  return (
    <Card>
      <LockedState className="py-12" />
    </Card>
  );
}

/** A page's header above `LockedCard`: the whole page of a pending or deactivated account. */
export function LockedPage({ header }: { header: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-6">
      {header}
      <LockedCard />
    </div>
  );
}
