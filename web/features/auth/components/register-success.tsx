import { ArrowLeft, CircleCheck, MessageCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '#web/components/ui/button';
import { useProductName, useSupportWhatsappLink } from '#web/lib/public-config';

/** The 'Conta Criada!' screen: ask the provider to release the account, or go back to login. */
export function RegisterSuccess({ email, onBackToLogin }: { email: string; onBackToLogin: () => void }) {
  const product = useProductName();
  const link = useSupportWhatsappLink(
    `Olá! Acabei de criar minha conta no ${product} e gostaria de solicitar a liberação. Meu e-mail: ${email}`,
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <div className="flex flex-col items-center gap-5 py-2 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-brand-soft text-brand-strong">
        <CircleCheck aria-hidden className="size-8" />
      </span>
      <div className="grid gap-2">
        <h2 ref={headingRef} tabIndex={-1} className="text-2xl font-semibold tracking-tight focus-visible:outline-none">
          Conta Criada!
        </h2>
        <p className="text-sm text-muted-foreground">
          Sua conta foi criada e aguarda liberação. Fale com a nossa equipe pelo WhatsApp para ativá-la.
        </p>
        <p className="text-sm">
          E-mail cadastrado: <strong className="break-all">{email}</strong>
        </p>
      </div>
      <div className="grid w-full gap-2">
        {link ? (
          <Button asChild size="lg" className="h-auto min-h-11 w-full whitespace-normal py-2">
            <a href={link} target="_blank" rel="noopener noreferrer">
              <MessageCircle aria-hidden />
              Solicitar liberação pelo WhatsApp
            </a>
          </Button>
        ) : (
          <Button size="lg" className="h-auto min-h-11 w-full whitespace-normal py-2" disabled>
            <MessageCircle aria-hidden />
            Solicitar liberação pelo WhatsApp
          </Button>
        )}
        <Button variant="outline" size="lg" className="w-full" onClick={onBackToLogin}>
          <ArrowLeft aria-hidden />
          Voltar ao login
        </Button>
      </div>
    </div>
  );
}
