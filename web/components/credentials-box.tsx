import { Copy } from 'lucide-react';
import type { Credentials } from '#contract/auth';
import { msg } from '#contract/messages';
import { toast } from './ui/use-toast';

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (no permission, insecure origin): fall back to a hidden text area.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  toast({ title: msg.generic.copied, variant: 'success' });
}

/** Generated credentials, shown once, each with a copy button. */
export function CredentialsBox({ credentials }: { credentials: Credentials }) {
  const rows = [
    { label: 'Usuário', value: credentials.username, testId: 'credential-username' },
    { label: 'Senha', value: credentials.password, testId: 'credential-password' },
  ];
  return (
    <dl className="grid gap-3 rounded-lg border bg-muted p-4 text-left">
      {rows.map((row) => (
        <div key={row.label} className="flex items-center gap-3">
          <div className="min-w-0 flex-1">
            <dt className="text-xs font-medium text-muted-foreground">{row.label}</dt>
            <dd className="truncate font-mono text-base font-semibold" data-testid={row.testId}>
              {row.value}
            </dd>
          </div>
          <button
            type="button"
            onClick={() => void copyText(row.value)}
            className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md border border-input bg-card px-3 text-sm font-medium shadow-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            <Copy aria-hidden className="size-4" />
            Copiar <span className="sr-only">{row.label.toLowerCase()}</span>
          </button>
        </div>
      ))}
    </dl>
  );
}
