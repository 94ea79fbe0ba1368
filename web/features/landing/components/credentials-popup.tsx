import { CircleCheck } from 'lucide-react';
import type { Credentials } from '#contract/auth';
import { CredentialsBox } from '#web/components/credentials-box';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';

/** The landing signup's popup with the generated credentials (shown once; closes itself after 20 s). */
export default function CredentialsPopup({
  credentials,
  open,
  onOpenChange,
  onLogin,
}: {
  credentials: Credentials;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onLogin: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <CircleCheck aria-hidden className="size-5 text-brand-strong" />
            Conta criada!
          </DialogTitle>
          <DialogDescription>
            Anote suas credenciais: elas aparecem só agora. Fale com a nossa equipe para liberar o acesso.
          </DialogDescription>
        </DialogHeader>
        <CredentialsBox credentials={credentials} />
        <DialogFooter>
          <Button onClick={onLogin}>Ir para o login</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
