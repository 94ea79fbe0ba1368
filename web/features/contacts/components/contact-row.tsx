import { Copy, Eye, EyeOff, Mail, MessageCircle, MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Contact, contactsMsg } from '#contract/contacts';
import { formatPhone, phoneDigits } from '#contract/phone';
import { EditDeleteButtons } from '#web/components/row-actions';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/use-toast';
import { maskEmail, maskPhone, whatsappLink } from '#web/lib/mask';
import { paths } from '#web/lib/paths';
import { toastError } from '#web/lib/toasts';
import { cn } from '#web/lib/utils';

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: contactsMsg.copied, description: text, variant: 'success' });
  } catch {
    toastError('Não foi possível copiar.');
  }
}

/** One contact: a box to select it, details masked until revealed, copy, WhatsApp and mail, edit and delete. */
export function ContactRow({
  contact,
  onEdit,
  onDelete,
  selected,
  onSelectedChange,
}: {
  contact: Contact;
  onEdit: (c: Contact) => void;
  onDelete: (c: Contact) => void;
  /** With `onSelectedChange`, the row has a box that selects it for the bulk actions. */
  selected?: boolean;
  onSelectedChange?: (selected: boolean) => void;
}) {
  const [revealed, setRevealed] = useState(false);
  const phone = revealed ? formatPhone(contact.phone) : maskPhone(contact.phone);
  const email = contact.email ? (revealed ? contact.email : maskEmail(contact.email)) : null;
  // A contact without a name is known by its number (masked like the number until revealed).
  const label = contact.name || phone;
  return (
    <div
      className="flex flex-col gap-3 border-b px-4 py-3 last:border-b-0 md:flex-row md:items-center"
      data-testid="contact-row"
    >
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          {onSelectedChange ? (
            <input
              type="checkbox"
              className="size-4 shrink-0 accent-brand-strong"
              aria-label={`Selecionar ${label}`}
              checked={selected ?? false}
              onChange={(e) => onSelectedChange(e.target.checked)}
            />
          ) : null}
          <span className="truncate font-medium">{label}</span>
          {contact.optedOut ? (
            <Badge tone="red">Descadastrado</Badge>
          ) : contact.isActive ? (
            <Badge tone="green">Ativo</Badge>
          ) : (
            <Badge tone="neutral">Inativo</Badge>
          )}
          {contact.isWhatsAppActive === true ? <Badge tone="brand">WhatsApp</Badge> : null}
          {contact.isWhatsAppActive === false ? <Badge tone="yellow">Sem WhatsApp</Badge> : null}
          {contact.tags.map((t) => (
            <Badge key={t} tone="outline">
              {t}
            </Badge>
          ))}
        </div>
        <div
          className={cn(
            'flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground',
            onSelectedChange && 'pl-6',
          )}
        >
          <span className="font-mono tabular-nums" data-testid="contact-phone">
            <span className="sr-only">{revealed ? 'Telefone: ' : 'Telefone oculto: '}</span>
            {phone}
          </span>
          {email ? (
            <span>
              <span className="sr-only">{revealed ? 'Email: ' : 'Email oculto: '}</span>
              {email}
            </span>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        <Button
          variant="ghost"
          size="icon"
          aria-label={revealed ? `Ocultar dados de ${label}` : `Mostrar dados de ${label}`}
          aria-pressed={revealed}
          onClick={() => setRevealed((r) => !r)}
        >
          {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Copiar telefone de ${label}`}
          onClick={() => void copy(contact.phone)}
        >
          <Copy aria-hidden />
        </Button>
        <Button variant="ghost" size="icon" asChild>
          <Link
            to={`${paths.conversations}?phone=${phoneDigits(contact.phone)}`}
            aria-label={`Ver conversa com ${label}`}
            title="Ver conversa"
          >
            <MessagesSquare aria-hidden />
          </Link>
        </Button>
        <Button variant="ghost" size="icon" asChild>
          <a
            href={whatsappLink(contact.phone)}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Abrir conversa com ${label} no WhatsApp`}
          >
            <MessageCircle aria-hidden />
          </a>
        </Button>
        {contact.email ? (
          <Button variant="ghost" size="icon" asChild>
            <a href={`mailto:${contact.email}`} aria-label={`Enviar email para ${label}`}>
              <Mail aria-hidden />
            </a>
          </Button>
        ) : null}
        <EditDeleteButtons
          name={label}
          editTeam="agent"
          onEdit={() => onEdit(contact)}
          onDelete={() => onDelete(contact)}
        />
      </div>
    </div>
  );
}
