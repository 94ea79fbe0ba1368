import { useQuery } from '@tanstack/react-query';
import { TriangleAlert, UsersRound } from 'lucide-react';
import { type ReactNode, useId, useMemo } from 'react';
import { Link } from 'react-router';
import { type CampaignTargetType, campaignMsg } from '#contract/campaigns';
import { groupsMsg, parseTags } from '#contract/contacts';
import { countLabel } from '#contract/plural';
import { FieldError } from '#web/components/field-error';
import { FormField } from '#web/components/form-field';
import { TagChipList } from '#web/components/tag-chips';
import { Skeleton } from '#web/components/ui/skeleton';
import { formatNumber } from '#web/lib/format';
import { paths } from '#web/lib/paths';
import { useContactTags } from '#web/lib/queries/get-contact-tags';
import { groupsQueryOptions } from '#web/lib/queries/get-groups';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { useAudience } from '../api/get-audience';

/**
 * The group picker: only once the account's groups have loaded (SPEC §2); several may be chosen. A
 * group without a WhatsApp id cannot receive a campaign (the server refuses it), so it cannot be
 * ticked here and says why; one already chosen can still be unticked.
 */
function GroupPicker({
  open,
  selected,
  onChange,
  error,
}: {
  open: boolean;
  selected: string[];
  onChange: (names: string[]) => void;
  error?: string;
}) {
  // SPEC §7: the dialog asks for the groups only while it is open.
  const groups = useQuery({ ...groupsQueryOptions(), enabled: open });
  const errorId = useId();
  const noteId = useId();

  if (groups.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Carregando grupos...
      </p>
    );
  }
  if (groups.isError || !groups.data) {
    return (
      <p role="alert" className="text-sm font-medium text-red-700">
        Não foi possível carregar os grupos. Feche e abra a janela para tentar novamente.
      </p>
    );
  }
  if (groups.data.length === 0) {
    return (
      <div className="grid gap-1">
        <p className="text-sm text-muted-foreground">
          Nenhum grupo ainda. Sincronize os grupos do seu WhatsApp na página{' '}
          <Link to={paths.groups} className="font-medium text-brand-ink underline underline-offset-4">
            Grupos
          </Link>
          .
        </p>
        <FieldError id={errorId} message={error} />
      </div>
    );
  }

  const toggle = (name: string, checked: boolean) =>
    onChange(checked ? [...selected.filter((n) => n !== name), name] : selected.filter((n) => n !== name));

  return (
    <fieldset className="grid gap-2" aria-describedby={[noteId, error ? errorId : null].filter(Boolean).join(' ')}>
      <legend className="mb-2 text-sm font-medium">Grupos</legend>
      <p id={noteId} className="text-xs text-muted-foreground">
        A mensagem vai uma vez em cada grupo do WhatsApp escolhido. Para enviar a pessoas, escolha Contatos e filtre por
        tags.
      </p>
      <ul className="grid max-h-48 gap-1 overflow-y-auto rounded-md border p-2">
        {groups.data.map((g) => {
          const linked = g.whatsappGroupId !== '';
          const checked = selected.includes(g.name);
          return (
            <li key={g.id}>
              <label
                className={
                  linked || checked
                    ? 'flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-sm hover:bg-muted'
                    : 'flex cursor-not-allowed items-center gap-3 rounded-md px-2 py-1.5 text-sm text-muted-foreground'
                }
              >
                <input
                  type="checkbox"
                  className="size-4 shrink-0 accent-brand-strong"
                  checked={checked}
                  disabled={!linked && !checked}
                  onChange={(e) => toggle(g.name, e.target.checked)}
                />
                <span className="min-w-0 flex-1 truncate">{g.name}</span>
                <span className="shrink-0 text-right text-xs text-muted-foreground">
                  {linked ? countLabel(g.membersCount, 'membro', 'membros') : groupsMsg.notLinked}
                  {g.isActive ? '' : ' · inativo'}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

/**
 * The tags of a 'Contatos' audience: the account's tags as chips with their counts, and the same
 * list as text (comma-separated), where a tag no contact has yet may be typed.
 */
function TagPicker({ open, tags, onChange }: { open: boolean; tags: string; onChange: (tags: string) => void }) {
  const accountTags = useContactTags(open);
  const chosen = parseTags(tags);
  const toggle = (tag: string, pressed: boolean) =>
    onChange((pressed ? [...chosen.filter((t) => t !== tag), tag] : chosen.filter((t) => t !== tag)).join(', '));
  return (
    <div className="grid gap-3">
      {accountTags.data && accountTags.data.length > 0 ? (
        <div className="grid gap-2">
          <span className="text-sm font-medium">Tags dos seus contatos</span>
          <TagChipList
            label="Tags dos seus contatos"
            tags={accountTags.data}
            isPressed={(t) => chosen.includes(t)}
            onToggle={toggle}
          />
        </div>
      ) : accountTags.isPending ? (
        <Skeleton className="h-8 w-48 rounded-full" />
      ) : (
        <p className="text-sm text-muted-foreground">
          Seus contatos ainda não têm tags. Marque-os com tags em{' '}
          <Link to={paths.contacts} className="font-medium text-brand-ink underline underline-offset-4">
            Contatos
          </Link>{' '}
          para enviar só a uma parte deles.
        </p>
      )}
      <FormField
        label="Tags (opcional)"
        value={tags}
        onChange={(e) => onChange(e.target.value)}
        hint="Somente contatos com alguma destas tags; em branco, todos os contatos. Separe por vírgula, por exemplo: cliente, vip"
        autoComplete="off"
      />
    </div>
  );
}

/**
 * 'N destinatários': who the campaign would reach if it started now, counted by the server with the
 * rule the sending engine uses, and who would be skipped and why. Counted again a moment after the
 * audience stops changing.
 */
function AudienceCount({
  open,
  targetType,
  tags,
  groups,
}: {
  open: boolean;
  targetType: CampaignTargetType;
  tags: string[];
  groups: string[];
}) {
  const selection = useDebouncedValue(
    useMemo(() => ({ targetType, tags, groups }), [targetType, tags, groups]),
    300,
  );
  const needsGroups = targetType === 'groups' && groups.length === 0;
  const audience = useAudience(selection, open && !needsGroups);
  const data = audience.data;

  let body: ReactNode;
  if (needsGroups) {
    body = <p className="text-sm text-muted-foreground">Escolha os grupos para ver quantos destinatários.</p>;
  } else if (audience.isError) {
    body = <p className="text-sm text-muted-foreground">Não foi possível contar os destinatários agora.</p>;
  } else if (!data) {
    body = <Skeleton className="h-6 w-40" />;
  } else {
    const parts = [
      data.contacts ? countLabel(data.contacts, 'contato', 'contatos') : null,
      data.groups ? countLabel(data.groups, 'grupo', 'grupos') : null,
    ].filter(Boolean);
    body = (
      <div className="grid gap-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="text-lg font-semibold tabular-nums" data-testid="audience-recipients">
            {countLabel(data.recipients, 'destinatário', 'destinatários')}
          </span>
          {parts.length > 1 ? <span className="text-muted-foreground">({parts.join(' e ')})</span> : null}
        </p>
        {data.recipients === 0 ? (
          <p className="flex items-start gap-2 text-sm font-medium text-amber-900">
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
            {campaignMsg.noRecipients}
          </p>
        ) : null}
        {data.skipped > 0 ? (
          <div className="text-xs text-muted-foreground">
            <p>{countLabel(data.skipped, 'será ignorado', 'serão ignorados')}:</p>
            <ul className="list-disc pl-5">
              {data.skippedReasons.map((r) => (
                <li key={r.reason}>
                  {formatNumber(r.count)} · {r.reason}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <section
      className="flex items-start gap-3 rounded-md border bg-muted/40 p-3"
      aria-label="Destinatários"
      aria-live="polite"
      aria-busy={audience.isFetching}
      data-testid="audience-count"
    >
      <UsersRound aria-hidden className="mt-1 size-5 shrink-0 text-brand-strong" />
      {body}
    </section>
  );
}

/**
 * The parts of 'Nova Campanha' below the audience choice: the tags of a 'Contatos' audience, the
 * groups of a 'Grupos específicos' one, and how many recipients the choice has before saving.
 */
export function CampaignAudienceFields({
  open,
  targetType,
  tags,
  groups,
  groupsError,
  onTagsChange,
  onGroupsChange,
}: {
  open: boolean;
  targetType: CampaignTargetType;
  tags: string;
  groups: string[];
  groupsError?: string;
  onTagsChange: (tags: string) => void;
  onGroupsChange: (names: string[]) => void;
}) {
  const parsedTags = useMemo(() => parseTags(tags), [tags]);
  return (
    <>
      {targetType === 'contacts' ? <TagPicker open={open} tags={tags} onChange={onTagsChange} /> : null}
      {targetType === 'groups' ? (
        <GroupPicker open={open} selected={groups} onChange={onGroupsChange} error={groupsError} />
      ) : null}
      <AudienceCount open={open} targetType={targetType} tags={parsedTags} groups={groups} />
    </>
  );
}
