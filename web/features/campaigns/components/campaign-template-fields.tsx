import { Info } from 'lucide-react';
import { useId } from 'react';
import { CAMPAIGN_VARIABLES, type CampaignVariable } from '#contract/campaigns';
import { TEMPLATE_WINDOW_NOTE } from '#contract/cloud-api';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { LabelledOptions, NativeSelect } from '#web/components/ui/select';
import { type CloudApiTemplate, useCloudApiTemplates } from '#web/lib/queries/get-cloud-api-templates';
import { useWhatsappSettings } from '#web/lib/queries/get-whatsapp-settings';
import type { CampaignFormState, TemplateVariableInput } from '../campaign-form';

const FIELD_LABELS: Record<CampaignVariable, string> = {
  nome: 'Nome do contato',
  primeiro_nome: 'Primeiro nome',
  telefone: 'Telefone',
  email: 'E-mail',
};
const FIXED = 'texto';

const templateKey = (t: Pick<CloudApiTemplate, 'name' | 'language'>) => `${t.name}|${t.language}`;

/**
 * Cloud API accounts: an approved message template for the campaign and what fills each of its
 * variables, with Meta's 24-hour rule spelled out. Nothing is shown on a personal number.
 */
export function CampaignTemplateFields({
  form,
  active,
  onChange,
}: {
  form: CampaignFormState;
  active: boolean;
  onChange: (patch: Partial<CampaignFormState>) => void;
}) {
  const id = useId();
  const settings = useWhatsappSettings(active);
  const cloud = settings.data?.channel === 'cloud';
  const templates = useCloudApiTemplates(active && cloud);
  if (!cloud) return null;

  const approved = (templates.data?.templates ?? []).filter((t) => t.status.toUpperCase() === 'APPROVED');
  const chosen = approved.find((t) => t.name === form.templateName && t.language === form.templateLanguage);
  const count = chosen?.variables ?? form.templateVariables.length;
  const variables: TemplateVariableInput[] = Array.from(
    { length: count },
    (_, i) => form.templateVariables[i] ?? { field: 'primeiro_nome' },
  );

  const pick = (key: string) => {
    const t = approved.find((x) => templateKey(x) === key);
    onChange(
      t
        ? {
            templateName: t.name,
            templateLanguage: t.language,
            templateVariables: Array.from({ length: t.variables ?? 0 }, () => ({ field: 'primeiro_nome' })),
          }
        : { templateName: '', templateLanguage: '', templateVariables: [] },
    );
  };
  const setVariable = (index: number, value: TemplateVariableInput) =>
    onChange({ templateVariables: variables.map((v, i) => (i === index ? value : v)) });

  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">Modelo da API oficial</legend>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{TEMPLATE_WINDOW_NOTE}</span>
      </p>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-template`}>Modelo aprovado</Label>
        <NativeSelect
          id={`${id}-template`}
          value={form.templateName ? templateKey({ name: form.templateName, language: form.templateLanguage }) : ''}
          onChange={(e) => pick(e.target.value)}
          disabled={templates.isLoading}
        >
          <option value="">Sem modelo (enviar o texto da mensagem)</option>
          {approved.map((t) => (
            <option key={templateKey(t)} value={templateKey(t)}>
              {t.name} ({t.language})
            </option>
          ))}
        </NativeSelect>
        {templates.isError ? (
          <p className="text-xs text-destructive">Não foi possível carregar os modelos da conta.</p>
        ) : null}
        {!templates.isLoading && !templates.isError && approved.length === 0 ? (
          <p className="text-xs text-muted-foreground">Nenhum modelo aprovado nesta conta.</p>
        ) : null}
        {chosen?.body ? <p className="rounded bg-muted px-2 py-1 text-xs whitespace-pre-wrap">{chosen.body}</p> : null}
      </div>
      {variables.map((v, i) => {
        const kind = 'field' in v ? v.field : FIXED;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a template's variables are positional ({{1}}, {{2}}…).
          <div key={`${form.templateName}-${i}`} className="grid gap-2 sm:grid-cols-2">
            <div className="grid gap-1">
              <Label htmlFor={`${id}-var-${i}`}>{`Variável {{${i + 1}}}`}</Label>
              <NativeSelect
                id={`${id}-var-${i}`}
                value={kind}
                onChange={(e) =>
                  setVariable(
                    i,
                    e.target.value === FIXED ? { text: '' } : { field: e.target.value as CampaignVariable },
                  )
                }
              >
                <LabelledOptions values={CAMPAIGN_VARIABLES} labels={FIELD_LABELS} />
                <option value={FIXED}>Texto fixo</option>
              </NativeSelect>
            </div>
            {'text' in v ? (
              <div className="grid gap-1">
                <Label htmlFor={`${id}-text-${i}`}>Texto</Label>
                <Input
                  id={`${id}-text-${i}`}
                  value={v.text}
                  maxLength={1024}
                  onChange={(e) => setVariable(i, { text: e.target.value })}
                />
              </div>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
