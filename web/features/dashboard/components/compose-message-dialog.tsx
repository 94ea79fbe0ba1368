import { MessageSquare } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';

/** Placeholder for the 'Compor Nova Mensagem' dialog (built with the messages feature). */
export function ComposeMessageDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <span className="mb-2 flex size-10 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
            <MessageSquare aria-hidden className="size-5" />
          </span>
          <DialogTitle>Compor Nova Mensagem</DialogTitle>
          <DialogDescription>
            O editor de mensagens está sendo preparado. Em breve você poderá escrever, anexar imagens e enviar para
            contatos ou grupos por aqui.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Fechar</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
