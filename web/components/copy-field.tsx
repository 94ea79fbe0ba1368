import { Copy } from 'lucide-react';
import { msg } from '#contract/messages';
import { Button } from './ui/button';
import { toast } from './ui/use-toast';

/** Puts `value` on the clipboard with a "Copiado!" toast; without clipboard access it stays on screen. */
export async function copyText(value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    toast({ title: msg.generic.copied, variant: 'success' });
  } catch (error) {
    // No clipboard permission (an insecure origin): the value stays on screen to be selected by hand.
    console.warn('Não foi possível copiar', error);
  }
}

/**
 * A value to paste elsewhere (Meta's panel: the webhook URL, the verify token), with its copy
 * button. `compact` for a value inside a list row (the 'Números' page).
 */
export function CopyField({
  label,
  value,
  testId,
  compact = false,
}: {
  label: string;
  value: string;
  testId: string;
  compact?: boolean;
}) {
  return (
    <div className={compact ? 'grid min-w-0 gap-1' : 'grid min-w-0 gap-1.5'}>
      <p className={compact ? 'text-xs font-medium text-muted-foreground' : 'text-sm font-medium'}>{label}</p>
      <div className="flex min-w-0 items-start gap-2">
        <code
          className="min-w-0 flex-1 rounded-md border bg-muted px-2 py-1.5 text-xs break-all"
          data-testid={testId}
          title={value}
        >
          {value}
        </code>
        <Button variant="outline" size="sm" onClick={() => void copyText(value)} aria-label={`Copiar ${label}`}>
          <Copy aria-hidden />
        </Button>
      </div>
    </div>
  );
}
