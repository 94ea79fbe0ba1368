import { Download, ExternalLink, FileText, LifeBuoy, MessageCircle, Sparkles } from 'lucide-react';
import { DEFAULT_PERIOD_DAYS } from '#contract/metrics';
import { CONNECTION_LIMITS, planLabel } from '#contract/plans';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { BackupDownloadButton } from '#web/features/backup/components/backup-download-button';
import { contactsExportUrl } from '#web/features/contacts/api/get-contacts';
import { ReportPdfButton } from '#web/features/reports/components/report-pdf-button';
import { useSupportLink, useTeamAllows } from '#web/lib/auth/use-can-act';
import { presetPeriod, today } from '#web/lib/metrics/period';
import { paths } from '#web/lib/paths';
import { usePublicConfig } from '#web/lib/public-config';

export function QuickLinksCard() {
  // The backup holds the whole account: the managers' and the owner's to download.
  const manages = useTeamAllows('manager');
  return (
    <Card className="h-full">
      <CardHeader>
        <CardTitle>Ações Rápidas</CardTitle>
        <CardDescription>Atalhos para tarefas frequentes.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Button asChild variant="outline" className="w-full justify-start">
          <a href={contactsExportUrl('csv')} download>
            <Download aria-hidden className="text-brand-strong" />
            Exportar Contatos
          </a>
        </Button>
        <ReportPdfButton
          variant="outline"
          className="w-full justify-start"
          period={presetPeriod(DEFAULT_PERIOD_DAYS, today())}
          label="Gerar Relatório"
          icon={FileText}
          iconClassName="text-brand-strong"
        />
        {manages ? <BackupDownloadButton /> : null}
      </CardContent>
    </Card>
  );
}

/** Active customers only: opens the landing page's plans in a new window. */
export function UpgradeCard() {
  return (
    <Card className="border-brand-strong/30 bg-gradient-to-br from-brand-soft to-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Sparkles aria-hidden className="size-4 text-brand-strong" />
          Faça upgrade do seu plano
        </CardTitle>
        <CardDescription>
          Mais números de WhatsApp (até {CONNECTION_LIMITS.premium} no {planLabel('premium')}), mais contatos e suporte
          prioritário.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="emphasis" className="w-full">
          <a href={paths.landingPlans} target="_blank" rel="noopener noreferrer">
            Ver planos
            <ExternalLink aria-hidden />
            <span className="sr-only">(abre em nova janela)</span>
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}

export function SupportCard() {
  const link = useSupportLink();
  const email = usePublicConfig().data?.supportEmailMasked;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LifeBuoy aria-hidden className="size-4 text-brand-strong" />
          Precisa de ajuda?
        </CardTitle>
        <CardDescription>
          Fale com o nosso suporte pelo WhatsApp{email ? ` ou escreva para ${email}` : ''}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {link ? (
          <Button asChild variant="outline" className="w-full">
            <a href={link} target="_blank" rel="noopener noreferrer">
              <MessageCircle aria-hidden className="text-brand-strong" />
              Falar com o suporte
            </a>
          </Button>
        ) : (
          <Button variant="outline" className="w-full" disabled>
            <MessageCircle aria-hidden />
            Falar com o suporte
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
