import { CheckCircle2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { QrCodeImage } from '#web/components/qr-code-image';
import { Spinner } from '#web/components/ui/spinner';

/**
 * The QR code a personal number pairs with ('Gerando QR code...' until the server reports one) and
 * the three steps on the phone; `children` follow them (an error, 'Gerar novo QR code').
 */
export function QrCodeStep({
  qr,
  openStep = 'Abra o WhatsApp no celular do número que vai enviar.',
  children,
}: {
  qr: string | null | undefined;
  openStep?: string;
  children?: ReactNode;
}) {
  return (
    <div className="grid justify-items-center gap-4">
      {qr ? (
        <QrCodeImage value={qr} />
      ) : (
        <div role="status" className="flex size-64 flex-col items-center justify-center gap-2 rounded-md border">
          <Spinner className="size-6 text-brand-strong" />
          <span className="text-sm text-muted-foreground">Gerando QR code...</span>
        </div>
      )}
      <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
        <li>{openStep}</li>
        <li>Toque em Mais opções ou Configurações e depois em Aparelhos conectados.</li>
        <li>Toque em Conectar um aparelho e aponte a câmera para este código.</li>
      </ol>
      {children}
    </div>
  );
}

/** What a pairing ends with: the check mark, `title` ('Número conectado!') and which number sends. */
export function PairedStep({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <div role="status" className="grid justify-items-center gap-3 py-4 text-center" data-testid={testId}>
      <CheckCircle2 aria-hidden className="size-12 text-brand-strong" />
      <p className="text-lg font-semibold">{title}</p>
      <p className="text-sm text-muted-foreground">{children}</p>
    </div>
  );
}
